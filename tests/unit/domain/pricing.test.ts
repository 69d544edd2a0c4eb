import { expect } from 'chai';
import { CHANNELS } from '../../../core/domain/channel.ts';
import { costPreview, DEFAULT_PRICING_RULES, findRule, priceMessage, type PricingRule } from '../../../core/domain/pricing.ts';

const rules: PricingRule[] = [
  { channel: 'SMS', country: 'GH', pricePerUnit: 3, unit: 'segment' },
  { channel: 'SMS', country: '*', pricePerUnit: 25, unit: 'segment' },
  { channel: 'EMAIL', country: '*', pricePerUnit: 1, unit: 'message' },
  { channel: 'WHATSAPP', country: 'GH', pricePerUnit: 8, unit: 'message' },
];

describe('domain: findRule', () => {
  it('prefers the rule for the exact country', () => {
    expect(findRule(rules, 'SMS', 'GH')).to.deep.equal(rules[0]);
  });

  it('matches the country case-insensitively', () => {
    expect(findRule(rules, 'SMS', 'gh')?.pricePerUnit).to.equal(3);
  });

  it('falls back to the channel\'s default rule for another country or no country', () => {
    expect(findRule(rules, 'SMS', 'KE')?.pricePerUnit).to.equal(25);
    expect(findRule(rules, 'SMS', null)?.pricePerUnit).to.equal(25);
    expect(findRule(rules, 'EMAIL', null)?.pricePerUnit).to.equal(1);
  });

  it('never takes another channel\'s rule', () => {
    expect(findRule(rules, 'WHATSAPP', 'NG')).to.equal(null);
    expect(findRule(rules, 'VOICE', 'GH')).to.equal(null);
  });
});

describe('domain: priceMessage', () => {
  it('prices SMS per segment', () => {
    expect(priceMessage(rules[0]!, 1)).to.equal(3);
    expect(priceMessage(rules[0]!, 3)).to.equal(9);
  });

  it('prices other channels per message, whatever the segment count', () => {
    expect(priceMessage(rules[3]!)).to.equal(8);
    expect(priceMessage(rules[3]!, 4)).to.equal(8);
  });

  it('refuses a segment count that is not a positive whole number', () => {
    for (const segments of [0, -1, 1.5, Number.NaN]) {
      expect(() => priceMessage(rules[0]!, segments), String(segments)).to.throw(RangeError);
    }
  });

  it('refuses a rule whose price is not whole pesewas', () => {
    expect(() => priceMessage({ channel: 'SMS', country: '*', pricePerUnit: 2.5, unit: 'segment' }, 1)).to.throw(RangeError);
  });
});

describe('domain: DEFAULT_PRICING_RULES', () => {
  it('has a default (*) rule for every channel, so no destination is unpriced', () => {
    for (const channel of CHANNELS) expect(findRule(DEFAULT_PRICING_RULES, channel, 'ZW'), channel).not.to.equal(null);
  });

  it('charges GHS 0.03 per SMS segment in Ghana, 0.10 to Nigeria and 0.25 elsewhere', () => {
    expect(findRule(DEFAULT_PRICING_RULES, 'SMS', 'GH')).to.deep.equal({ channel: 'SMS', country: 'GH', pricePerUnit: 3, unit: 'segment' });
    expect(findRule(DEFAULT_PRICING_RULES, 'SMS', 'NG')?.pricePerUnit).to.equal(10);
    expect(findRule(DEFAULT_PRICING_RULES, 'SMS', 'US')?.pricePerUnit).to.equal(25);
  });

  it('prices only SMS per segment, holds whole non-negative pesewas and one rule per channel and country', () => {
    const keys = new Set<string>();
    for (const rule of DEFAULT_PRICING_RULES) {
      expect(rule.unit, rule.channel).to.equal(rule.channel === 'SMS' ? 'segment' : 'message');
      expect(Number.isSafeInteger(rule.pricePerUnit) && rule.pricePerUnit >= 0, `${rule.channel} ${rule.country}`).to.equal(true);
      keys.add(`${rule.channel}/${rule.country}`);
    }
    expect(keys.size).to.equal(DEFAULT_PRICING_RULES.length);
  });
});

describe('domain: costPreview', () => {
  it('prices a two-segment Ghanaian SMS at 6 pesewas', () => {
    expect(costPreview(DEFAULT_PRICING_RULES, 'SMS', 'GH', 'a'.repeat(161))).to.deep.include({ segments: 2, encoding: 'GSM-7', characters: 161, price: 6 });
  });

  it('prices a Twi SMS by its UCS-2 segments', () => {
    expect(costPreview(DEFAULT_PRICING_RULES, 'SMS', 'GH', 'ɛ'.repeat(71))).to.deep.include({ segments: 2, encoding: 'UCS-2', price: 6 });
  });

  it('prices an email per message with no SMS fields', () => {
    expect(costPreview(DEFAULT_PRICING_RULES, 'EMAIL', null, 'x'.repeat(5000))).to.deep.include({ segments: 1, encoding: null, characters: null, price: 1 });
  });

  it('returns null when no rule prices the channel', () => {
    expect(costPreview(rules, 'PUSH', null, 'hello')).to.equal(null);
  });
});
