import type { Container } from 'inversify';
import { GetConsentStats } from '../../../core/use-cases/consent/get-consent-stats.ts';
import { GetContactPreferences } from '../../../core/use-cases/consent/get-contact-preferences.ts';
import { GetOptOutPage } from '../../../core/use-cases/consent/get-opt-out-page.ts';
import { SubmitOptOutPage } from '../../../core/use-cases/consent/submit-opt-out-page.ts';
import { UpdateContactPreferences } from '../../../core/use-cases/consent/update-contact-preferences.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { consentRoutes } from '../routes/consent-routes.ts';
import { API } from '../tokens.ts';

/** Consent: the hosted opt-out page behind opt-out links, the preference centre API and its statistics (docs/consent.md). */
export function bindConsentModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock, links) => consentRoutes({
      getOptOutPage: new GetOptOutPage({ storage, links }),
      submitOptOutPage: new SubmitOptOutPage({ storage, links, ids, clock }),
      getContactPreferences: new GetContactPreferences({ storage }),
      updateContactPreferences: new UpdateContactPreferences({ storage, ids, clock }),
      getConsentStats: new GetConsentStats({ storage, clock }),
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock, MESSAGING.optOutLinks]).inSingletonScope();
}
