import type { Container } from 'inversify';
import { CancelVerification } from '../../../core/use-cases/verify/cancel-verification.ts';
import { CheckVerification } from '../../../core/use-cases/verify/check-verification.ts';
import { GetVerifications } from '../../../core/use-cases/verify/get-verifications.ts';
import { GetVerifyAnalytics } from '../../../core/use-cases/verify/get-verify-analytics.ts';
import { ResendVerification } from '../../../core/use-cases/verify/resend-verification.ts';
import { StartVerification } from '../../../core/use-cases/verify/start-verification.ts';
import { ManageVerifySettings } from '../../../core/use-cases/verify/verify-settings.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { verifyRoutes } from '../routes/verify-routes.ts';
import { API } from '../tokens.ts';

/** Verify: one-time passcodes (docs/verify.md). */
export function bindVerifyModule(container: Container): void {
  container.bind(API.routes).toResolvedValue((deps) => verifyRoutes({
    start: new StartVerification(deps), check: new CheckVerification(deps), resend: new ResendVerification(deps), cancel: new CancelVerification(deps),
    get: new GetVerifications(deps), settings: new ManageVerifySettings(deps), analytics: new GetVerifyAnalytics(deps),
  }), [MESSAGING.verifyDeps]).inSingletonScope();
}
