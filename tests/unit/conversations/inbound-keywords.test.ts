import { expect } from 'chai';
import { decideKeyword, normalizeKeyword, type TenantKeyword } from '../../../core/domain/inbound-keywords.ts';

const own = (keyword: string, action: TenantKeyword['action'], replyText: string | null = null): TenantKeyword =>
  ({ id: keyword, organizationId: 'org', keyword: normalizeKeyword(keyword), action, replyText, createdAt: new Date(0) });

describe('Inbound keywords', () => {
  it('matches the whole message in any case, without accents or trailing punctuation, in English, French, Twi, Ga and Ewe', () => {
    for (const text of ['STOP', 'stop', ' Stop. ', 'Unsubscribe!', 'arrêt', 'Désabonner', 'gyae', 'Kpa', 'dzudzɔ', 'opt out']) {
      expect(decideKeyword(text, [])?.action, text).to.equal('OPT_OUT');
    }
    for (const text of ['START', 'unstop', 'Subscribe', 'abonner']) expect(decideKeyword(text, [])?.action, text).to.equal('OPT_IN');
  });

  it('does not treat a sentence containing a keyword as one', () => {
    expect(decideKeyword('please stop the promo', [])).to.equal(null);
    expect(decideKeyword('Where is my order?', [])).to.equal(null);
    expect(decideKeyword('', [])).to.equal(null);
  });

  it('adds the organization\'s keywords; a built-in word keeps its action and may carry the organization\'s confirmation', () => {
    const tenant = [own('hours', 'AUTO_REPLY', 'We are open 8-17'), own('stop', 'OPT_OUT', 'You will get no more messages'), own('halt', 'OPT_OUT')];
    expect(decideKeyword('Hours?', tenant)).to.deep.equal({ action: 'AUTO_REPLY', keyword: 'HOURS', replyText: 'We are open 8-17' });
    expect(decideKeyword('stop', tenant)).to.deep.equal({ action: 'OPT_OUT', keyword: 'STOP', replyText: 'You will get no more messages' });
    expect(decideKeyword('HALT', tenant)?.action).to.equal('OPT_OUT');
  });
});
