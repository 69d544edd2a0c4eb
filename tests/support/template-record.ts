import type { Template } from '../../core/domain/template.ts';

/** An APPROVED SMS template record for tests; `fields` override anything (body, variables, status ...). */
export function aTemplateRecord(id: string, organizationId: string, now: Date, fields: Partial<Template> = {}): Template {
  return {
    id, organizationId, name: 'Order shipped', channel: 'SMS', body: 'Hi {{name}}, order {{order}} has shipped', subject: null,
    countryCode: 'GH', language: 'en', category: 'TRANSACTIONAL', variables: ['name', 'order'], status: 'APPROVED', reviewComment: null,
    createdByUserId: null, createdAt: now, updatedAt: now, ...fields,
  };
}
