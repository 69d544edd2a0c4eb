import { expect } from 'chai';
import sinon from 'sinon';
import { UuidV7IdGenerator } from '../../../adapters/security/uuid-v7-id-generator.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('UuidV7IdGenerator', () => {
  afterEach(() => sinon.restore());

  it('makes RFC 9562 version 7 ids carrying the millisecond timestamp', () => {
    sinon.stub(Date, 'now').returns(0x01a2_0000_abcd);
    const id = new UuidV7IdGenerator().next();
    expect(id).to.match(V7);
    expect(id.startsWith('01a20000-abcd-7000-')).to.equal(true);
  });

  it('makes every id greater than the previous one, even past 4,096 ids in one millisecond or with the clock going back', () => {
    const now = sinon.stub(Date, 'now').returns(1_000);
    const ids = new UuidV7IdGenerator();
    const made: string[] = [];
    for (let i = 0; i < 5_000; i += 1) made.push(ids.next());
    now.returns(999);
    made.push(ids.next());
    expect(made.every((id) => V7.test(id))).to.equal(true);
    expect(made.every((id, i) => i === 0 || id > made[i - 1]!)).to.equal(true);
    expect(made[4_096]!.slice(0, 13)).to.equal('00000000-03e9'); // the 4,097th id borrowed the next millisecond
  });
});
