import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { CreateTemplate } from '../../../core/use-cases/templates/create-template.ts';
import { GetTemplate } from '../../../core/use-cases/templates/get-template.ts';
import { ListTemplates, MAX_TEMPLATES_LISTED } from '../../../core/use-cases/templates/list-templates.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const ORG_A = { organizationId: 'org-a', userId: 'user-a' };
const ORG_B = { organizationId: 'org-b', userId: 'user-b' };

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Creates templates one second apart, so that newest-first order is visible. */
async function seed(core: TestCore, scope: typeof ORG_A, bodies: ReadonlyArray<Record<string, unknown>>): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) {
    core.clock.advance(1_000);
    ids.push((await new CreateTemplate(core).execute(scope, { name: 'T', body: 'Hello', channel: 'SMS', ...body })).id);
  }
  return ids;
}

describe('ListTemplates', () => {
  it('lists the organization\'s templates newest first, and none of another organization', async () => {
    const core = buildCore();
    const [first, second, third] = await seed(core, ORG_A, [{ name: 'First' }, { name: 'Second', channel: 'EMAIL' }, { name: 'Third', category: 'MARKETING' }]);
    await seed(core, ORG_B, [{ name: 'Not yours' }]);

    const listed = await new ListTemplates(core).execute(ORG_A);

    expect(listed.map((t) => t.id)).to.deep.equal([third, second, first]);
    expect(listed.map((t) => t.name)).to.deep.equal(['Third', 'Second', 'First']);
    expect(listed[0]).to.include({ status: 'PENDING_APPROVAL', category: 'MARKETING' });
  });

  it('filters by channel and by status, ignoring blank filter values', async () => {
    const core = buildCore();
    const [sms, email, promo] = await seed(core, ORG_A, [{}, { channel: 'EMAIL' }, { category: 'MARKETING' }]);
    const list = new ListTemplates(core);

    expect((await list.execute(ORG_A, { channel: 'SMS' })).map((t) => t.id)).to.deep.equal([promo, sms]);
    expect((await list.execute(ORG_A, { status: 'APPROVED' })).map((t) => t.id)).to.deep.equal([email, sms]);
    expect((await list.execute(ORG_A, { channel: 'SMS', status: 'PENDING_APPROVAL' })).map((t) => t.id)).to.deep.equal([promo]);
    expect(await list.execute(ORG_A, { channel: 'EMAIL', status: 'REJECTED' })).to.deep.equal([]);
    expect(await list.execute(ORG_A, { channel: '', status: '' })).to.have.length(3);
  });

  it('rejects an unknown channel or status filter with VALIDATION_ERROR naming it', async () => {
    const core = buildCore();
    const error = await rejection(new ListTemplates(core).execute(ORG_A, { channel: 'FAX', status: 'LIVE' }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.all.keys('channel', 'status');
  });

  it(`lists at most ${MAX_TEMPLATES_LISTED} templates, the newest`, async () => {
    const core = buildCore();
    const ids = await seed(core, ORG_A, Array.from({ length: MAX_TEMPLATES_LISTED + 1 }, () => ({})));
    const listed = await new ListTemplates(core).execute(ORG_A);
    expect(listed).to.have.length(MAX_TEMPLATES_LISTED);
    expect(listed[0]!.id).to.equal(ids.at(-1));
    expect(listed.map((t) => t.id)).to.not.include(ids[0]);
  });
});

describe('GetTemplate', () => {
  it('returns a template of the caller\'s organization', async () => {
    const core = buildCore();
    const [id] = await seed(core, ORG_A, [{ name: 'Receipt', channel: 'EMAIL', subject: 'Receipt {{n}}', body: '<p>{{n}}</p>' }]);
    const template = await new GetTemplate(core).execute(ORG_A, id!);
    expect(template).to.deep.include({ id, name: 'Receipt', channel: 'EMAIL', subject: 'Receipt {{n}}', variables: ['n'], status: 'APPROVED' });
  });

  it('answers NOT_FOUND for another organization\'s template, an unknown id and an absurd one', async () => {
    const core = buildCore();
    const [id] = await seed(core, ORG_A, [{}]);
    for (const [scope, wanted] of [[ORG_B, id!], [ORG_A, 'no-such-id'], [ORG_A, ''], [ORG_A, 'x'.repeat(65)]] as const) {
      const error = await rejection(new GetTemplate(core).execute(scope, wanted));
      expect(error.code).to.equal('NOT_FOUND');
    }
  });
});
