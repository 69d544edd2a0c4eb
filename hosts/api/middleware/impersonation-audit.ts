import type Koa from 'koa';
import type { RecordImpersonatedRequest } from '../../../core/use-cases/admin/record-impersonated-request.ts';
import { HTTP_STATUS_BY_CODE } from '../http-error-map.ts';
import { AppError } from '../../../core/errors.ts';
import type { Logger } from '../../logger.ts';
import type { RouteDefinition } from '../route.ts';
import type { Principals } from './authenticate.ts';

export type ImpersonationAuditor = Pick<RecordImpersonatedRequest, 'execute'>;

/** Reads change nothing; every other method is an action the administrator took as the tenant. */
const READ_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Runs a request made with an impersonation token and, for a write (POST, PUT, PATCH, DELETE),
 * records it in the audit log as the administrator acting as the tenant, with the route pattern and
 * the outcome status, whether it succeeded or failed. A failure to record is logged, not hidden.
 */
export async function auditImpersonatedWrite(ctx: Koa.Context, route: RouteDefinition, principals: Principals,
  auditor: ImpersonationAuditor, logger: Logger, run: () => Promise<void>): Promise<void> {
  const user = principals.user!;
  if (READ_METHODS.includes(ctx.method)) return run();
  let status = 500;
  try {
    await run();
    status = ctx.status;
  } catch (error) {
    status = error instanceof AppError ? HTTP_STATUS_BY_CODE[error.code] : 500;
    throw error;
  } finally {
    await auditor.execute({
      userId: user.userId, impersonatorId: user.impersonatorId!, organizationId: principals.tenant?.organizationId ?? user.impersonatedOrganizationId ?? null,
      method: ctx.method, route: route.path, path: ctx.path, status, requestId: String(ctx.state['requestId']),
    }).catch((error: unknown) => logger.error({ err: error, requestId: ctx.state['requestId'] }, 'impersonated request not audited'));
  }
}
