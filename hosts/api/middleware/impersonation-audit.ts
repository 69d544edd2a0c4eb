import type { RecordImpersonatedRequest } from '../../../core/use-cases/admin/record-impersonated-request.ts';
import { AppError } from '../../../core/errors.ts';
import type { Logger } from '../../logger.ts';
import { HTTP_STATUS_BY_CODE } from '../http-error-map.ts';
import type { RequestInput, RouteDefinition, RouteResult } from '../route.ts';

export type ImpersonationAuditor = Pick<RecordImpersonatedRequest, 'execute'>;

/** Reads change nothing; every other method is an action the administrator took as the tenant. */
const READ_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Wraps every write route (POST, PUT, PATCH, DELETE) so that a request made with an impersonation
 * token is recorded in the audit log as the administrator acting as the tenant: the route pattern,
 * the path and the outcome status, whether the handler succeeded or failed (never the body). Runs
 * after authentication (a request refused there did nothing). A failure to record is logged, and the
 * request's answer stands: the action has already happened.
 */
export function withImpersonationAudit(routes: readonly RouteDefinition[], auditor: ImpersonationAuditor, logger: Logger): RouteDefinition[] {
  return routes.map((route) => (READ_METHODS.includes(route.method) || route.auth === 'none' ? route : {
    ...route,
    handler: async (input: RequestInput) => {
      const user = input.user;
      if (!user?.impersonatorId) return route.handler(input);
      let status = 500;
      try {
        const result: RouteResult | void = await route.handler(input);
        status = route.custom || !result ? input.koa.status : (result.status ?? 200);
        return result;
      } catch (error) {
        status = error instanceof AppError ? HTTP_STATUS_BY_CODE[error.code] : 500;
        throw error;
      } finally {
        await auditor.execute({
          userId: user.userId, impersonatorId: user.impersonatorId, organizationId: input.tenant?.organizationId ?? user.impersonatedOrganizationId ?? null,
          method: route.method, route: route.path, path: input.koa.path, status, requestId: input.requestId,
        }).catch((error: unknown) => logger.error({ err: error, requestId: input.requestId }, 'impersonated request not audited'));
      }
    },
  }));
}
