import type { RouteModule } from '../../app-types.ts';
import type { NetworkContext } from '../../route-contexts.ts';
import { receiveProviderNoticeRoute } from './receive-provider-notice.route.ts';

/** Routes the PIX network calls (registered only with PIX_NETWORK=provider). */
export const networkRoutes: RouteModule<NetworkContext>[] = [receiveProviderNoticeRoute];
