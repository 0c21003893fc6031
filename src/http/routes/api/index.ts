import type { RouteModule } from '../../app-types.ts';
import { createCashInRoute } from './create-cash-in.route.ts';
import { createTokenRoute } from './create-token.route.ts';
import { getBalanceRoute } from './get-balance.route.ts';

/** The public family (`/api/...`): errors in the full envelope. */
export const apiRoutes: RouteModule[] = [createTokenRoute, getBalanceRoute, createCashInRoute];
