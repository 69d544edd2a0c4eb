import type { Container } from 'inversify';
import { PgliteInboxFeed, PostgresInboxFeed } from '../../../adapters/postgres/pg-inbox-feed.ts';
import { SqlInboxStreamLeases } from '../../../adapters/postgres/sql-inbox-stream-leases.ts';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import { AuthenticateSubscriber } from '../../../core/use-cases/inbox/authenticate-subscriber.ts';
import { GetInboxFeed } from '../../../core/use-cases/inbox/get-inbox-feed.ts';
import { ManageInboxSettings } from '../../../core/use-cases/inbox/manage-inbox-settings.ts';
import { MarkInboxItems } from '../../../core/use-cases/inbox/mark-inbox-items.ts';
import { InboxStreams } from '../inbox/inbox-streams.ts';
import { inboxRoutes } from '../routes/inbox-routes.ts';
import { INFRA } from '../../tokens.ts';
import { API } from '../tokens.ts';

/** The in-app inbox (docs/inbox.md): feed API and SSE streams for browsers, the bell component, the tenant's settings. */
export function bindInboxModule(container: Container): void {
  container.bind(API.inboxStreams).toResolvedValue((database, storage, logger, config) => {
    const feed = database.pglite ? new PgliteInboxFeed(database.pglite)
      : new PostgresInboxFeed(config.databaseListenUrl ?? database.databaseUrl!, (error) => logger.warn({ err: error }, 'inbox listen connection lost'));
    return new InboxStreams(feed, () => storage.inbox, new SqlInboxStreamLeases(database), logger, { perSubscriber: config.inboxStreamsPerSubscriber, total: config.inboxStreamsMax });
  }, [INFRA.database, INFRA.storage, INFRA.logger, INFRA.config]).inSingletonScope();
  container.bind(API.routes).toResolvedValue((storage, secrets, clock, config, streams) => {
    const cipher = new AesGcmCredentialCipher(config.encryptionKey);
    return inboxRoutes({
      authenticate: new AuthenticateSubscriber({ storage, secrets, cipher, clock }),
      feed: new GetInboxFeed({ storage }),
      mark: new MarkInboxItems({ storage, clock }),
      settings: new ManageInboxSettings({ storage, secrets, cipher, clock }),
      streams,
      subscriberHash: async (organizationId, subscriberId) => {
        const settings = await storage.inbox.getSettings(organizationId);
        return settings ? secrets.hmacSha256(cipher.decrypt(settings.secretCiphertext), subscriberId) : null;
      },
    });
  }, [INFRA.storage, INFRA.secrets, INFRA.clock, INFRA.config, API.inboxStreams]).inSingletonScope();
}
