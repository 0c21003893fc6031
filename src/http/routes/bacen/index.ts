import type { RouteModule } from '../../app-types.ts';
import { getBalancesRoute } from './get-balances.route.ts';

/** The central-bank-compatible family: errors in the short form. */
export const bacenRoutes: RouteModule[] = [getBalancesRoute];
