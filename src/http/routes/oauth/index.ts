import type { RouteModule } from '../../app-types.ts';
import type { OAuthContext } from '../../route-contexts.ts';
import { oauthTokenRoute } from './create-token.route.ts';

/** `/oauth/token`: errors in the RFC 6749 form. */
export const oauthRoutes: RouteModule<OAuthContext>[] = [oauthTokenRoute];
