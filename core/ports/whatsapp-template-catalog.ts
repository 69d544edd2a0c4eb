import type { MetaTemplateListing } from '../domain/whatsapp-template.ts';

/**
 * The message templates of the WhatsApp Business Account an organization's WHATSAPP messages go
 * through (docs/whatsapp-templates.md): its own Meta account when it has one, else the platform's.
 * Every page is read with a timeout. Errors: PROVIDER_UNAVAILABLE when no loaded Meta account has a
 * `businessAccountId`, or Meta cannot be read (retryable for timeouts, 5xx and throttling); never credentials.
 */
export interface WhatsappTemplateCatalog {
  templatesFor(organizationId: string): Promise<MetaTemplateListing[]>;
}
