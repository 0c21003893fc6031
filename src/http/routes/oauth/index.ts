import type { RouteModule } from '../../app-types.ts';
import { oauthTokenRoute } from './create-token.route.ts';

/** `/oauth/token`: errors in the RFC 6749 form. */
export const oauthRoutes: RouteModule[] = [oauthTokenRoute];
