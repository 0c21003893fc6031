import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { refundPayoutRoute } from './refund-payout.route.ts';
import { registerDictKeyRoute } from './register-dict-key.route.ts';
import { openMedRoute } from './open-med.route.ts';
import { transitionMedRoute } from './transition-med.route.ts';
import { payChargeRoute } from './pay-charge.route.ts';
import { advanceClockRoute } from './advance-clock.route.ts';
import { createDepositRoute } from './create-deposit.route.ts';
import { testClockRoutes } from './test-clock-routes.ts';

/** Routes that drive the simulated rest of the network; registered only in sandbox mode. */
export const sandboxRoutes: RouteModule<SandboxContext>[] = [createDepositRoute, refundPayoutRoute, registerDictKeyRoute, advanceClockRoute, payChargeRoute, openMedRoute, transitionMedRoute, ...testClockRoutes];
