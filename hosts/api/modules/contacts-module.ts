import type { Container } from 'inversify';
import { CreateContact } from '../../../core/use-cases/contacts/create-contact.ts';
import { DeleteContact } from '../../../core/use-cases/contacts/delete-contact.ts';
import { GetContact } from '../../../core/use-cases/contacts/get-contact.ts';
import { GetContactImport } from '../../../core/use-cases/contacts/get-contact-import.ts';
import { ListContacts } from '../../../core/use-cases/contacts/list-contacts.ts';
import { OptOutContact } from '../../../core/use-cases/contacts/opt-out-contact.ts';
import { StartContactImport } from '../../../core/use-cases/contacts/start-contact-import.ts';
import { UpdateContact } from '../../../core/use-cases/contacts/update-contact.ts';
import { INFRA } from '../../tokens.ts';
import { contactRoutes } from '../routes/contact-routes.ts';
import { API } from '../tokens.ts';

/** Contacts: CRUD, opt-out and the CSV import (processed by the worker). */
export function bindContactsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock, config) => contactRoutes({
      createContact: new CreateContact({ storage, ids, clock }),
      listContacts: new ListContacts({ storage }),
      getContact: new GetContact({ storage }),
      updateContact: new UpdateContact({ storage, clock }),
      deleteContact: new DeleteContact({ storage }),
      optOutContact: new OptOutContact({ storage, ids, clock }),
      startContactImport: new StartContactImport({ storage, ids, clock }),
      getContactImport: new GetContactImport({ storage }),
      importMaxBytes: config.importMaxBytes,
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock, INFRA.config]).inSingletonScope();
}
