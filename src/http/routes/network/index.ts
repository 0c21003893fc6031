import type { RouteModule } from '../../app-types.ts';
import { receiveProviderNoticeRoute } from './receive-provider-notice.route.ts';

/** Routes the PIX network calls (registered only with PIX_NETWORK=provider). */
export const networkRoutes: RouteModule[] = [receiveProviderNoticeRoute];
