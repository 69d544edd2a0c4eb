import { expect } from 'chai';
import { checkMapping, whatsappTemplateSend, type MetaTemplateListing, type MetaTemplateMapping } from '../../../core/domain/whatsapp-template.ts';

const NOW = new Date('2026-11-28T06:00:00Z');

/**
 * Meta's documented list entries (template-management "Get templates"): a NAMED template (placeholders by
 * name, `parameter_format: NAMED`), and an authentication template created with an `otp` copy-code button.
 */
const RESERVATION: MetaTemplateListing = {
  name: 'reservation_confirmation', language: 'en_US', status: 'APPROVED', parameterFormat: 'NAMED',
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.whatsapp.net/v/t61'] } },
    { type: 'BODY', text: "*You're all set!*\n\nYour reservation for {{number_of_guests}} at Lucky Shrub Eatery on {{day}}, {{date}}, at {{time}}, is confirmed. See you then!" },
    { type: 'FOOTER', text: 'Lucky Shrub Eatery: The Luckiest Eatery in Town!' },
  ],
};
const OTP: MetaTemplateListing = {
  name: 'authentication_code_copy_code_button', language: 'en_US', status: 'APPROVED',
  components: [
    { type: 'BODY', text: '*{{1}}* is your verification code.', add_security_recommendation: true },
    { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
  ],
};

describe('WhatsApp templates: the mapping checked against Meta and turned into Meta\'s send payload', () => {
  it('a NAMED template: the check records Meta\'s parameter names, and the payload sends them as parameter_name', () => {
    const mapping: MetaTemplateMapping = { name: 'reservation_confirmation', language: 'en_US',
      components: [{ type: 'body', parameters: ['guests', 'day', 'date', 'time'] }] };
    const check = checkMapping(mapping, [RESERVATION], NOW);
    expect(check).to.deep.include({ status: 'APPROVED', parameterNames: { body: ['number_of_guests', 'day', 'date', 'time'] } });
    const send = whatsappTemplateSend(mapping, { guests: '4', day: 'Saturday', date: 'August 30th, 2025', time: '7:30 pm' }, check.parameterNames);
    expect(send.components[0]!.parameters[0]).to.deep.equal({ type: 'text', parameter_name: 'number_of_guests', text: '4' });
  });

  it('an authentication template\'s copy-code (OTP) button takes one parameter; a mapping without it is a MISMATCH', () => {
    const full: MetaTemplateMapping = { name: OTP.name, language: 'en_US', components: [{ type: 'body', parameters: ['code'] }, { type: 'button', subType: 'url', index: 0, parameters: ['code'] }] };
    expect(checkMapping(full, [OTP], NOW).status).to.equal('APPROVED');
    const bodyOnly: MetaTemplateMapping = { ...full, components: [{ type: 'body', parameters: ['code'] }] };
    expect(checkMapping(bodyOnly, [OTP], NOW)).to.deep.include({ status: 'MISMATCH', detail: 'button:0 takes 1 parameter(s), the mapping gives 0' });
    expect(whatsappTemplateSend(full, { code: '123456' })).to.deep.equal({ name: OTP.name, language: { code: 'en_US' }, components: [
      { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '123456' }] },
    ] });
  });

  it('Meta\'s other status words: IN_APPEAL counts as PENDING, PAUSED and DISABLED stay themselves', () => {
    const mapping: MetaTemplateMapping = { name: OTP.name, language: 'en_US', components: [{ type: 'body', parameters: ['code'] }, { type: 'button', subType: 'url', index: 0, parameters: ['code'] }] };
    expect(checkMapping(mapping, [{ ...OTP, status: 'IN_APPEAL' }], NOW)).to.deep.include({ status: 'PENDING', metaStatus: 'IN_APPEAL' });
    expect(checkMapping(mapping, [{ ...OTP, status: 'PAUSED' }], NOW).status).to.equal('PAUSED');
    expect(checkMapping(mapping, [{ ...OTP, status: 'DISABLED' }], NOW).status).to.equal('DISABLED');
  });
});
