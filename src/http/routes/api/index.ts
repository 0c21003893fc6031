import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { createRefundInRoute } from './create-refund-in.route.ts';
import { listMedRoute } from './list-med.route.ts';
import { createCashInRoute } from './create-cash-in.route.ts';
import { createCashOutRoute } from './create-cash-out.route.ts';
import { createCashOutQrCodeRoute } from './create-cash-out-qrcode.route.ts';
import { getTransactionRoute } from './get-transaction.route.ts';
import { listTransactionsRoute } from './list-transactions.route.ts';
import { createTokenRoute } from './create-token.route.ts';
import { getBalanceRoute } from './get-balance.route.ts';
import { listWebhooksRoute } from './list-webhooks.route.ts';
import { unregisterWebhookRoute } from './unregister-webhook.route.ts';
import { registerWebhookRoute } from './register-webhook.route.ts';
import { resendWebhookRoute } from './resend-webhook.route.ts';
import { listEventsRoute } from './list-events.route.ts';
import { getEventRoute } from './get-event.route.ts';
import { streamEventsRoute } from './stream-events.route.ts';
import { replayWebhookDeliveriesRoute } from './replay-webhook-deliveries.route.ts';

/** The public family (`/api/...`): errors in the full envelope. */
export const apiRoutes: RouteModule<ApiContext>[] = [createTokenRoute, getBalanceRoute, createCashInRoute, createCashOutRoute, createCashOutQrCodeRoute, listTransactionsRoute, getTransactionRoute, createRefundInRoute, listMedRoute, registerWebhookRoute, listWebhooksRoute, unregisterWebhookRoute, resendWebhookRoute,
  // Issue 29: the events API (list, live stream, one event) and replay.
  listEventsRoute, streamEventsRoute, getEventRoute, replayWebhookDeliveriesRoute];
