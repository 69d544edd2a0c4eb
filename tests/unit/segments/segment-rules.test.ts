import { expect } from 'chai';
import { parseSegmentRule } from '../../../core/domain/segment-rules.ts';
import { AppError } from '../../../core/errors.ts';

function failure(raw: unknown): AppError {
  try { parseSegmentRule(raw); } catch (error) { if (error instanceof AppError) return error; throw error; }
  throw new Error('expected a VALIDATION_ERROR');
}

describe('segment rules: parsing and validation', () => {
  it('normalizes phone values: GH network prefixes become E.164 prefixes, full numbers E.164', () => {
    expect(parseSegmentRule({ field: 'phone', op: 'startsWith', value: ['024', '054', '+23355', '0023359'] }))
      .to.deep.equal({ field: 'phone', op: 'startsWith', value: ['+23324', '+23354', '+23355', '+23359'] });
    expect(parseSegmentRule({ field: 'phone', op: 'equals', value: '024 123 4567' })).to.deep.equal({ field: 'phone', op: 'equals', value: ['+233241234567'] });
  });

  it('points at the bad rule path inside nested groups', () => {
    const error = failure({ all: [{ field: 'tags', op: 'contains', value: 'vip' }, { any: [{ field: 'firstName', op: 'like', value: 'A' }] }] });
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['path']).to.equal('rules.all[1].any[0].op');
    expect((error.details['fieldErrors'] as Record<string, string[]>)['rules']![0]).to.match(/^rules\.all\[1\]\.any\[0\]\.op: /);
  });

  it('rejects unknown fields, unknown keys, bad dates, bad phone prefixes and non-objects', () => {
    expect(failure({ field: 'salary', op: 'equals', value: '1' }).details['path']).to.equal('rules.field');
    expect(failure({ field: 'tags', op: 'contains', value: 'x', extra: 1 }).details['path']).to.match(/^rules/);
    expect(failure({ field: 'createdAt', op: 'before', value: 'yesterday' }).details['path']).to.equal('rules.value');
    expect(failure({ field: 'phone', op: 'startsWith', value: '02a' }).details['path']).to.equal('rules.value');
    expect(failure({ all: 'nope' }).details['path']).to.equal('rules.all');
    expect(failure(['x']).details['path']).to.equal('rules');
    expect(failure({ field: 'optedOut', op: 'equals', value: 'no' }).details['path']).to.equal('rules.value');
  });

  it('bounds nesting depth and the number of conditions', () => {
    let deep: unknown = { field: 'tags', op: 'contains', value: 'x' };
    for (let i = 0; i < 6; i += 1) deep = { all: [deep] };
    expect(failure(deep).message).to.match(/nest at most/);
    const many = { any: Array.from({ length: 51 }, () => ({ field: 'tags', op: 'contains', value: 'x' })) };
    expect(failure(many).message).to.match(/at most 50 conditions/);
  });
});
