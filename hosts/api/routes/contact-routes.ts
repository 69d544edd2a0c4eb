import { createReadStream } from 'node:fs';
import { AppError } from '../../../core/errors.ts';
import type { CreateContact } from '../../../core/use-cases/contacts/create-contact.ts';
import { ContactBody } from '../../../core/use-cases/contacts/contact-schemas.ts';
import type { DeleteContact } from '../../../core/use-cases/contacts/delete-contact.ts';
import type { GetContact } from '../../../core/use-cases/contacts/get-contact.ts';
import type { GetContactImport } from '../../../core/use-cases/contacts/get-contact-import.ts';
import { CONTACTS_PAGE_MAX, ListContactsInput, type ListContacts } from '../../../core/use-cases/contacts/list-contacts.ts';
import type { OptOutContact } from '../../../core/use-cases/contacts/opt-out-contact.ts';
import type { StartContactImport } from '../../../core/use-cases/contacts/start-contact-import.ts';
import type { UpdateContact } from '../../../core/use-cases/contacts/update-contact.ts';
import { ok, requireTenant, type RouteDefinition, type UploadedFileRef } from '../route.ts';

export interface ContactRouteDeps {
  createContact: CreateContact;
  listContacts: ListContacts;
  getContact: GetContact;
  updateContact: UpdateContact;
  deleteContact: DeleteContact;
  optOutContact: OptOutContact;
  startContactImport: StartContactImport;
  getContactImport: GetContactImport;
  importMaxBytes: number;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};
const NOT_FOUND = { 404: 'NOT_FOUND (unknown id, or a contact of another organization)' };

export function contactRoutes(deps: ContactRouteDeps): RouteDefinition[] {
  const id = (params: Record<string, string>) => params['id'] ?? '';
  return [
    {
      method: 'GET', path: '/contacts', tag: 'Contacts', summary: 'Search the organization\'s contacts (name, phone, email), newest first, paginated',
      auth: 'tenant', permission: 'contacts:read', query: ListContactsInput,
      responses: { 200: `{ items, page, limit, total }; at most ${CONTACTS_PAGE_MAX} per page`, 400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.listContacts.execute(requireTenant(input), input.query)),
    },
    {
      method: 'POST', path: '/contacts', tag: 'Contacts', summary: 'Create a contact (phone stored in E.164, email lowercased)',
      auth: 'tenant', permission: 'contacts:write', body: ContactBody,
      responses: {
        201: 'The contact', 400: 'VALIDATION_ERROR naming the field, or ORGANIZATION_REQUIRED', ...DENIED,
        409: 'CONFLICT: another contact of the organization has this phone or email (details.existingContactId)',
      },
      handler: async (input) => ok(await deps.createContact.execute(requireTenant(input), input.body), 201),
    },
    {
      method: 'POST', path: '/contacts/import', tag: 'Contacts', summary: 'Import contacts from a CSV file (multipart field `file`); processed in the background',
      auth: 'tenant', permission: 'contacts:write', multipart: { maxBytes: deps.importMaxBytes },
      responses: {
        201: 'The import job (status PENDING); follow it with GET /contacts/imports/{id}',
        400: 'VALIDATION_ERROR (no `file` field, an empty file, a header naming neither phone nor email) or ORGANIZATION_REQUIRED', ...DENIED,
        413: `PAYLOAD_TOO_LARGE (a file over IMPORT_MAX_BYTES, default 200 MiB)`, 415: 'UNSUPPORTED_MEDIA_TYPE (not multipart/form-data)',
      },
      handler: async (input) => {
        const tenant = requireTenant(input);
        const file = (input.body as { files?: Record<string, UploadedFileRef> }).files?.['file'];
        if (!file) throw new AppError('VALIDATION_ERROR', 'file: is required (a CSV file in the multipart field `file`)', { fieldErrors: { file: ['is required'] }, formErrors: [] });
        return ok(await deps.startContactImport.execute({ organizationId: tenant.organizationId, userId: tenant.userId },
          { name: file.name, content: createReadStream(file.path, { highWaterMark: 256 * 1024 }) }), 201);
      },
    },
    {
      method: 'GET', path: '/contacts/imports/:id', tag: 'Contacts', summary: 'Progress and result of a CSV import',
      auth: 'tenant', permission: 'contacts:read',
      responses: { 200: 'status, progress { rowsDone, totalRows }, created, updated, skipped, errorCount, errors (first 100: line, reason)', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.getContactImport.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'GET', path: '/contacts/:id', tag: 'Contacts', summary: 'One contact',
      auth: 'tenant', permission: 'contacts:read',
      responses: { 200: 'The contact', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.getContact.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'PATCH', path: '/contacts/:id', tag: 'Contacts', summary: 'Update a contact (fields present replace, null clears)',
      auth: 'tenant', permission: 'contacts:write', body: ContactBody,
      responses: { 200: 'The contact', 400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND, 409: 'CONFLICT (another contact has this phone or email)' },
      handler: async (input) => ok(await deps.updateContact.execute(requireTenant(input), id(input.params), input.body)),
    },
    {
      method: 'DELETE', path: '/contacts/:id', tag: 'Contacts', summary: 'Delete a contact (its suppression entries stay)',
      auth: 'tenant', permission: 'contacts:write',
      responses: { 200: '{ id, deleted: true }', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.deleteContact.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'POST', path: '/contacts/:id/opt-out', tag: 'Contacts', summary: 'Opt a contact out: suppressed on every channel, contact.opted_out emitted',
      auth: 'tenant', permission: 'contacts:write',
      responses: { 200: 'The contact (optedOut true)', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.optOutContact.execute(requireTenant(input), id(input.params))),
    },
  ];
}
