import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';
import { getLocationRoute } from './get-location.route.ts';
import { healthRoute } from './health.route.ts';
import { metricsRoute } from './metrics.route.ts';
import { openapiRoute } from './openapi.route.ts';
import { jwksRoute } from './jwks.route.ts';
import { readyRoute } from './ready.route.ts';
import { oauthMetadataRoute } from './oauth-metadata.route.ts';

export const systemRoutes: RouteModule<SystemContext>[] = [healthRoute, readyRoute, metricsRoute, openapiRoute, jwksRoute, oauthMetadataRoute, getLocationRoute];
