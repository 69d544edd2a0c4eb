import { expect } from 'chai';
import { isGsm7, smsSegments } from '../../../core/domain/sms-segments.ts';

const a = (n: number) => 'a'.repeat(n);
const ucs = (n: number) => 'ɛ'.repeat(n);

describe('domain: smsSegments', () => {
  describe('GSM-7', () => {
    it('fits 160 characters in one segment', () => {
      expect(smsSegments(a(160))).to.deep.equal({ encoding: 'GSM-7', segments: 1, characters: 160, perSegment: 160 });
    });

    it('needs two segments of 153 from 161 characters', () => {
      expect(smsSegments(a(161))).to.deep.equal({ encoding: 'GSM-7', segments: 2, characters: 161, perSegment: 153 });
    });

    it('fits 306 characters in two segments and needs three for 307', () => {
      expect(smsSegments(a(306))).to.deep.include({ segments: 2, characters: 306 });
      expect(smsSegments(a(307))).to.deep.include({ segments: 3, characters: 307 });
      expect(smsSegments(a(459))).to.deep.include({ segments: 3 });
      expect(smsSegments(a(460))).to.deep.include({ segments: 4 });
    });

    it('counts each extension character ^ { } \\ [ ~ ] | € and form feed as two septets', () => {
      expect(smsSegments('^{}\\[~]|€\f')).to.deep.equal({ encoding: 'GSM-7', segments: 1, characters: 20, perSegment: 160 });
    });

    it('tips 159 characters plus one € over into two segments', () => {
      expect(smsSegments(a(158) + '€')).to.deep.include({ segments: 1, characters: 160 });
      expect(smsSegments(a(159) + '€')).to.deep.include({ segments: 2, characters: 161 });
    });

    it('never splits an extension character across segments', () => {
      // 152 + 2 + 152 = 306 septets, but € cannot take the last septet of part one: 152 | 2 + 151 | 1.
      expect(smsSegments(a(152) + '€' + a(152))).to.deep.include({ segments: 3, characters: 306 });
      expect(smsSegments(a(153) + '€' + a(151))).to.deep.include({ segments: 2, characters: 306 });
    });

    it('keeps the accented and Greek letters of the GSM alphabet in GSM-7', () => {
      const text = '@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&\'()*+,-./:;<=>?¡ÄÖÑÜ§¿äöñüà\n\r';
      expect(smsSegments(text)).to.deep.include({ encoding: 'GSM-7', characters: [...text].length });
    });

    it('counts a plain English reminder in GSM-7', () => {
      expect(smsSegments('Hello Ama, your GHS 25.00 top-up was received. Ref: NK-2043.')).to.deep.include({ encoding: 'GSM-7', segments: 1, characters: 60 });
    });
  });

  describe('UCS-2', () => {
    it('switches a Twi sentence with ɛ and ɔ to UCS-2', () => {
      const twi = 'Mema wo akwaaba. Wo sika akɔ so yɛ GHS 25.';
      expect(smsSegments(twi)).to.deep.equal({ encoding: 'UCS-2', segments: 1, characters: twi.length, perSegment: 70 });
    });

    it('switches Ga/Ewe letters Ɛ Ɔ ŋ and the cedi sign ₵ to UCS-2 on their own', () => {
      for (const ch of ['Ɛ', 'Ɔ', 'ŋ', 'ɛ', 'ɔ', '₵']) {
        expect(smsSegments(a(10) + ch).encoding, ch).to.equal('UCS-2');
        expect(isGsm7(ch), ch).to.equal(false);
      }
      expect(smsSegments('Pay ₵25 now')).to.deep.include({ encoding: 'UCS-2', characters: 11 });
    });

    it('switches curly quotes and a lowercase ç, which are not in the GSM alphabet, to UCS-2', () => {
      expect(smsSegments('It’s ready').encoding).to.equal('UCS-2');
      expect(smsSegments('ça va').encoding).to.equal('UCS-2');
    });

    it('fits 70 code units in one segment and needs two for 71', () => {
      expect(smsSegments(ucs(70))).to.deep.equal({ encoding: 'UCS-2', segments: 1, characters: 70, perSegment: 70 });
      expect(smsSegments(ucs(71))).to.deep.equal({ encoding: 'UCS-2', segments: 2, characters: 71, perSegment: 67 });
    });

    it('fits 134 code units in two segments and needs three for 135', () => {
      expect(smsSegments(ucs(134))).to.deep.include({ segments: 2, characters: 134 });
      expect(smsSegments(ucs(135))).to.deep.include({ segments: 3, characters: 135 });
    });

    it('counts an emoji outside the BMP as two code units', () => {
      expect(smsSegments('Akwaaba 🎉')).to.deep.include({ encoding: 'UCS-2', characters: 10, segments: 1 });
      expect(smsSegments(ucs(68) + '🎉')).to.deep.include({ characters: 70, segments: 1 });
      expect(smsSegments(ucs(69) + '🎉')).to.deep.include({ characters: 71, segments: 2 });
    });

    it('never splits a surrogate pair across segments', () => {
      // 66 + 2 + 66 = 134 code units, but the emoji cannot take the last unit of part one: 66 | 2 + 65 | 1.
      expect(smsSegments(ucs(66) + '🎉' + ucs(66))).to.deep.include({ segments: 3, characters: 134 });
      expect(smsSegments(ucs(67) + '🎉' + ucs(65))).to.deep.include({ segments: 2, characters: 134 });
    });
  });

  it('counts an empty text as one GSM-7 segment of no characters', () => {
    expect(smsSegments('')).to.deep.equal({ encoding: 'GSM-7', segments: 1, characters: 0, perSegment: 160 });
  });
});
