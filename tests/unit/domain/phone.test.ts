import { expect } from 'chai';
import { normalizePhone, premiumRateReason, type NormalizedPhone, type PhoneResult } from '../../../core/domain/phone.ts';

function phone(raw: string, country?: string): NormalizedPhone {
  const result = country === undefined ? normalizePhone(raw) : normalizePhone(raw, country);
  if (!result.ok) throw new Error(`expected ${raw} to be valid, got: ${result.reason}`);
  return result.phone;
}

function failure(result: PhoneResult) {
  if (result.ok) throw new Error(`expected a failure, got ${result.phone.e164}`);
  return { problem: result.problem, reason: result.reason };
}

describe('domain: normalizePhone', () => {
  it('reads the local Ghanaian formats as the same E.164 MTN mobile number', () => {
    for (const raw of ['024 123 4567', '0241234567', '(024) 123-4567', '024.123.4567', '+233 24 123 4567', '+233241234567', '00233241234567', '  0241234567  ']) {
      expect(phone(raw).e164, raw).to.equal('+233241234567');
    }
  });

  it('reads 233 followed by the national number, without +, as a Ghanaian number', () => {
    expect(phone('233241234567')).to.deep.equal({ e164: '+233241234567', country: 'GH', callingCode: '233', type: 'MOBILE' });
    expect(phone('233 24 123 4567').e164).to.equal('+233241234567');
  });

  it('drops the trunk 0 written after the country code (+233 024 ...)', () => {
    expect(phone('+233 024 123 4567').e164).to.equal('+233241234567');
  });

  it('recognises MTN, Telecel and AirtelTigo mobiles as Ghanaian mobile numbers', () => {
    const mobiles = { mtn: '0544123456', mtn59: '0591234567', telecel: '0201234567', telecel50: '0501234567', airteltigo: '0271234567', airteltigo26: '0261234567', airteltigo57: '0571234567' };
    for (const [network, raw] of Object.entries(mobiles)) {
      const parsed = phone(raw);
      expect(parsed.country, network).to.equal('GH');
      expect(parsed.type, network).to.equal('MOBILE');
      expect(parsed.e164, network).to.equal(`+233${raw.slice(1)}`);
    }
  });

  it('types a Ghanaian landline as FIXED_LINE', () => {
    expect(phone('030 212 3456')).to.deep.equal({ e164: '+233302123456', country: 'GH', callingCode: '233', type: 'FIXED_LINE' });
  });

  it('reads a Nigerian mobile in national format when the country code is NG', () => {
    expect(phone('0803 123 4567', 'NG')).to.deep.equal({ e164: '+2348031234567', country: 'NG', callingCode: '234', type: 'MOBILE' });
  });

  it('accepts a lowercase country code', () => {
    expect(phone('08031234567', 'ng').e164).to.equal('+2348031234567');
  });

  it('reads an international number by its own calling code whatever the default country', () => {
    const parsed = phone('+234 803 123 4567', 'GH');
    expect(parsed.country).to.equal('NG');
  });

  it('does not guess a foreign country from digits without + (234... with default GH)', () => {
    expect(failure(normalizePhone('2348031234567', 'GH')).problem).to.equal('TOO_LONG');
  });

  it('rejects a Ghanaian national number read with the wrong default country', () => {
    expect(failure(normalizePhone('0241234567', 'NG'))).to.deep.equal({ problem: 'INVALID_NUMBER', reason: 'is not a valid phone number for NG' });
  });

  it('returns null as the country of a non-geographic number', () => {
    expect(phone('+882 16 1234 5678')).to.include({ e164: '+8821612345678', country: null, callingCode: '882' });
  });

  it('rejects garbage with a reason', () => {
    expect(failure(normalizePhone('call me maybe'))).to.deep.equal({ problem: 'NOT_A_NUMBER', reason: 'is not a phone number' });
    expect(failure(normalizePhone(''))).to.deep.equal({ problem: 'NOT_A_NUMBER', reason: 'is not a phone number' });
    expect(failure(normalizePhone('+'))).to.deep.equal({ problem: 'NOT_A_NUMBER', reason: 'is not a phone number' });
  });

  it('rejects letters, extensions and URI forms around an otherwise valid number', () => {
    for (const raw of ['0241234567abc', '+233 24 123 4567 ext 5', 'tel:+233241234567', '++233241234567', '0241234567#']) {
      expect(normalizePhone(raw).ok, raw).to.equal(false);
    }
    expect(failure(normalizePhone('+233241234567x')).problem).to.equal('INVALID_CHARACTERS');
  });

  it('rejects a number one digit too short or too long for Ghana', () => {
    expect(failure(normalizePhone('024 123'))).to.deep.equal({ problem: 'TOO_SHORT', reason: 'is too short to be a phone number for GH' });
    expect(failure(normalizePhone('024 1234 5678'))).to.deep.equal({ problem: 'TOO_LONG', reason: 'is too long to be a phone number for GH' });
    expect(failure(normalizePhone('+233 24 123 456')).problem).to.equal('INVALID_NUMBER');
  });

  it('rejects a number whose country calling code does not exist', () => {
    expect(failure(normalizePhone('+999 123 456 789'))).to.deep.equal({ problem: 'INVALID_NUMBER', reason: 'has an unknown country calling code' });
  });

  it('rejects an unknown default country before reading the number', () => {
    expect(failure(normalizePhone('0241234567', 'XX')).problem).to.equal('UNKNOWN_COUNTRY');
    expect(failure(normalizePhone('0241234567', 'Ghana')).problem).to.equal('UNKNOWN_COUNTRY');
  });
});

describe('domain: premiumRateReason', () => {
  it('flags a UK 09xx premium-rate number', () => {
    const uk = phone('0909 879 0000', 'GB');
    expect(uk.type).to.equal('PREMIUM_RATE');
    expect(premiumRateReason(uk)).to.equal('premium-rate');
    expect(premiumRateReason(phone('+44 909 879 0000'))).to.equal('premium-rate');
  });

  it('flags a US 1-900 number', () => {
    expect(premiumRateReason(phone('+1 900 200 1234'))).to.equal('premium-rate');
  });

  it('flags the +979 international premium-rate code as premium-rate', () => {
    expect(premiumRateReason(phone('+979 1234 56789'))).to.equal('premium-rate');
  });

  it('flags +882 and +883 international networks', () => {
    expect(premiumRateReason(phone('+882 16 1234 5678'))).to.equal('international-network');
    expect(premiumRateReason(phone('+883 5100 1234 5678'))).to.equal('international-network');
  });

  it('flags +881 satellite phones and +870 Inmarsat', () => {
    expect(premiumRateReason(phone('+881 6 3123 4567'))).to.equal('international-network');
    expect(premiumRateReason(phone('+870 773 111 632'))).to.equal('international-network');
  });

  it('lets ordinary mobiles and landlines through', () => {
    for (const [raw, country] of [['0241234567', 'GH'], ['0201234567', 'GH'], ['0271234567', 'GH'], ['08031234567', 'NG'], ['0302123456', 'GH'], ['+44 7400 123456', 'GH'], ['+1 212 555 0123', 'GH']] as const) {
      expect(premiumRateReason(phone(raw, country)), raw).to.equal(null);
    }
  });

  it('lets UK 0800 freephone and 03xx national-rate numbers through (only PREMIUM_RATE counts)', () => {
    expect(premiumRateReason(phone('0800 123 4567', 'GB'))).to.equal(null);
    const nationalRate = phone('0345 300 0300', 'GB');
    expect(nationalRate.type).to.equal('UAN');
    expect(premiumRateReason(nationalRate)).to.equal(null);
  });

  it('follows the metadata in treating UK 084x/087x service numbers as premium-rate', () => {
    expect(premiumRateReason(phone('0845 464 0000', 'GB'))).to.equal('premium-rate');
  });
});
