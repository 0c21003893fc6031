import type { RouteModule } from '../../app-types.ts';

/** The central-bank-compatible family: errors in the short form. */
export const bacenRoutes: RouteModule[] = [];
