import type { AuthenticateApiKey } from '../../core/use-cases/api-keys/authenticate-api-key.ts';
import type { AuthenticateSession } from '../../core/use-cases/auth/authenticate-session.ts';
import type { RecordImpersonatedRequest } from '../../core/use-cases/admin/record-impersonated-request.ts';
import type { RecordOrgAuditEvent } from '../../core/use-cases/audit/record-org-audit-event.ts';
import type { HttpMetrics } from './metrics.ts';
import type { RouteDefinition } from './route.ts';
import type { InboxStreams } from './inbox/inbox-streams.ts';
import { token } from '../tokens.ts';

/** Tokens of the API host. Each module binds `routes` once; the app gets all of them. */
export const API = {
  routes: token<RouteDefinition[]>('api.routes'),
  metrics: token<HttpMetrics>('api.metrics'),
  authenticateSession: token<AuthenticateSession>('api.AuthenticateSession'),
  authenticateApiKey: token<AuthenticateApiKey>('api.AuthenticateApiKey'),
  recordImpersonatedRequest: token<RecordImpersonatedRequest>('api.RecordImpersonatedRequest'),
  /** Records one event in an organization's audit log (docs/audit-log.md); the audited routes go through it. */
  recordOrgAuditEvent: token<RecordOrgAuditEvent>('api.RecordOrgAuditEvent'),
  /** The process's inbox SSE streams (docs/inbox.md): closed before the server drains at shutdown. */
  inboxStreams: token<InboxStreams>('api.InboxStreams'),
} as const;
