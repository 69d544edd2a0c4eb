import { expect } from 'chai';
import { asList, describeRules, fill, formatTime, ghs, plural, zonedToIso, outboxFallbackChannels, outboxOnlyChannels, percent, placeholders, qs, toRules, toSeries } from '../../../hosts/web/src/format.ts';

describe('dashboard helpers (hosts/web/src/format.ts)', () => {
  it('shows amounts as GHS with two decimals and thousands separators, and a dash for non-numbers', () => {
    expect(ghs(0)).to.equal('GHS 0.00');
    expect(ghs(1234.5)).to.equal('GHS 1,234.50');
    expect(ghs(0.035)).to.equal('GHS 0.04');
    expect(ghs('25')).to.equal('GHS 25.00');
    expect(ghs(-3)).to.equal('-GHS 3.00');
    expect(ghs({ amount: 50 })).to.equal('GHS 50.00');
    for (const bad of [null, undefined, '', 'abc', NaN, {}]) expect(ghs(bad)).to.equal('—');
  });

  it('shows times in the organization\'s timezone, and survives an unknown zone or a bad date', () => {
    expect(formatTime('2026-11-23T05:55:27.000Z', 'Africa/Accra')).to.equal('23 Nov 2026, 05:55:27');
    expect(formatTime('2026-11-23T05:55:27.000Z', 'Africa/Lagos')).to.equal('23 Nov 2026, 06:55:27');
    expect(formatTime('2026-11-23T05:55:27.000Z', 'Not/AZone')).to.equal('2026-11-23T05:55:27.000Z');
    expect(formatTime('yesterday', 'UTC')).to.equal('yesterday');
    expect(formatTime(null, 'UTC')).to.equal('—');
    // One pattern for pages, chart axes and the bell (issue 35): day month, 24-hour clock, in the given zone.
    expect(formatTime('2026-11-23T17:05:27.000Z', 'Africa/Lagos', 'time')).to.equal('18:05');
    expect(formatTime('2026-11-23T17:05:27.000Z', 'Africa/Lagos', 'day')).to.equal('23 Nov');
    expect(formatTime(Date.parse('2026-11-23T23:05:27.000Z'), 'Africa/Lagos', 'dayTime')).to.equal('24 Nov, 00:05');
  });

  it('detects template placeholders in order without duplicates, and fills the given sample values only', () => {
    expect(placeholders('Hi {{name}}, code {{ code }} for {{name}} ({{a.b-c_d}})')).to.deep.equal(['name', 'code', 'a.b-c_d']);
    expect(placeholders('no variables, {single} braces')).to.deep.equal([]);
    expect(fill('Hi {{name}}, code {{code}}', { name: 'Kofi', code: '' })).to.equal('Hi Kofi, code {{code}}');
  });

  it('builds query strings from set values only', () => {
    expect(qs({ page: 2, status: '', channel: undefined, search: 'a b' })).to.equal('?page=2&search=a+b');
    expect(qs({ status: null })).to.equal('');
  });

  it('reads lists as arrays or inside { items | data | ... }', () => {
    expect(asList([1, 2])).to.deep.equal([1, 2]);
    expect(asList({ items: [1], page: 1 })).to.deep.equal([1]);
    expect(asList({ data: [3] })).to.deep.equal([3]);
    expect(asList({ nothing: true })).to.deep.equal([]);
    expect(asList(null)).to.deep.equal([]);
  });

  it('turns the segment builder into the rule language: text lists, booleans, dates, empty values dropped', () => {
    expect(toRules('all', [
      { field: 'tags', op: 'contains', value: ' vip ' },
      { field: 'firstName', op: 'equals', value: 'Ama, Kofi' },
      { field: 'optedOut', op: 'equals', value: 'false' },
      { field: 'createdAt', op: 'after', value: '2026-01-01' },
      { field: 'email', op: 'contains', value: '  ' },
    ])).to.deep.equal({ all: [
      { field: 'tags', op: 'contains', value: 'vip' },
      { field: 'firstName', op: 'equals', value: ['Ama', 'Kofi'] },
      { field: 'optedOut', op: 'equals', value: false },
      { field: 'createdAt', op: 'after', value: '2026-01-01T00:00:00.000Z' },
    ] });
    expect(toRules('any', [])).to.deep.equal({ any: [] });
  });

  it('turns long, wide and per-channel analytics series into one row per day, oldest first', () => {
    const expected = [{ date: '2026-11-01', SMS: 3, EMAIL: 1 }, { date: '2026-11-02', SMS: 2 }];
    expect(toSeries({ volume: [
      { date: '2026-11-02', channel: 'SMS', count: 2 }, { date: '2026-11-01', channel: 'SMS', count: 3 }, { date: '2026-11-01T00:00:00Z', channel: 'EMAIL', count: 1 },
    ] })).to.deep.equal(expected);
    expect(toSeries({ daily: [{ date: '2026-11-02', SMS: 2 }, { date: '2026-11-01', channels: { SMS: 3, EMAIL: 1 } }] })).to.deep.equal(expected);
    expect(toSeries({ series: { SMS: [{ date: '2026-11-01', count: 3 }, { date: '2026-11-02', count: 2 }], EMAIL: [{ date: '2026-11-01', count: 1 }] } })).to.deep.equal(expected);
    expect(toSeries({})).to.deep.equal([]);
  });

  it('shows rates as percentages whether the API sends a fraction or a percentage', () => {
    expect(percent(0.953)).to.equal('95.3%');
    expect(percent(95.3)).to.equal('95.3%');
    expect(percent(undefined)).to.equal('—');
  });

  it('names the channels that route only to the outbox (the dashboard banner), ignoring inactive providers', () => {
    const p = (channel: string, vendor: string, active = true) => ({ name: `${vendor}-${channel}`, vendor, channel, active });
    expect(outboxOnlyChannels([p('SMS', 'outbox'), p('EMAIL', 'outbox'), p('EMAIL', 'smtp-email'), p('PUSH', 'outbox'), p('PUSH', 'fcm-push', false)])).to.deep.equal(['PUSH', 'SMS']);
    expect(outboxOnlyChannels([p('SMS', 'arkesel-sms'), p('SMS', 'outbox', false)])).to.deep.equal([]);
    expect(outboxOnlyChannels([])).to.deep.equal([]);
  });

  it('names the channels with a vendor that can still fall back to an active outbox (issue 29)', () => {
    const p = (channel: string, vendor: string, active = true) => ({ name: `${vendor}-${channel}`, vendor, channel, active });
    expect(outboxFallbackChannels([p('SMS', 'arkesel-sms'), p('SMS', 'outbox'), p('EMAIL', 'outbox'), p('PUSH', 'fcm-push'), p('PUSH', 'outbox', false)])).to.deep.equal(['SMS']);
    expect(outboxFallbackChannels([p('SMS', 'outbox')])).to.deep.equal([]);
  });

  it('reads a send-later time in the organization\'s zone, and counts nouns (issue 35)', () => {
    expect(zonedToIso('2026-12-24T09:30', 'Africa/Lagos')).to.equal('2026-12-24T08:30:00.000Z');
    expect(zonedToIso('2026-12-24T09:30', 'Africa/Accra')).to.equal('2026-12-24T09:30:00.000Z');
    expect(zonedToIso('2026-07-01T12:00', 'Europe/London')).to.equal('2026-07-01T11:00:00.000Z');
    expect(zonedToIso('tomorrow', 'UTC')).to.equal(null);
    expect(plural(1, 'SMS segment')).to.equal('1 SMS segment');
    expect(plural(3, 'SMS segment')).to.equal('3 SMS segments');
  });

  it('says segment rules in words (issue 35)', () => {
    expect(describeRules({ all: [{ field: 'phone', op: 'startsWith', value: ['024', '054', '055'] }, { field: 'optedOut', op: 'equals', value: false }] }))
      .to.equal('phone starts with 024, 054 or 055 and not opted out');
    expect(describeRules({ all: [{ field: 'tags', op: 'contains', value: 'vip' }, { any: [{ field: 'attribute', name: 'city', op: 'equals', value: 'Accra' }, { field: 'createdAt', op: 'after', value: '2026-01-01T00:00:00.000Z' }] }] }))
      .to.equal('tags contains vip and (attribute city is Accra or added after 2026-01-01)');
    expect(describeRules({ countryCode: 'GH', tags: ['vip'] })).to.equal('country is GH and tags is vip');
    expect(describeRules({ all: [] })).to.equal('everyone');
  });
});
