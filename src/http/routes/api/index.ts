import type { RouteModule } from '../../app-types.ts';

/** The public family (`/api/...`): errors in the full envelope. */
export const apiRoutes: RouteModule[] = [];
