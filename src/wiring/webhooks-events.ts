import type { Config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { IDLE_SAFETY_POLL_MS } from '../jobs/due-wakeups.ts';
import { createDrainState } from '../http/drain.ts';
import type { AccountService } from '../services/accounts/account.service.ts';
import { createEventLog } from '../services/events/event-log.service.ts';
import { createEventStreams } from '../services/events/event-streams.ts';
import { createDeliveryLog } from '../services/webhooks/delivery-log.service.ts';
import { createWebhookRegistrationService } from '../services/webhooks/registration.service.ts';
import { createWebhookReplay } from '../services/webhooks/replay.service.ts';
import { createTestClocks } from '../services/test-clocks/test-clock.service.ts';
import { createWebhookResendService } from '../services/webhooks/resend.service.ts';
import { createWebhookTestService } from '../services/webhooks/test-delivery.service.ts';
import { systemResolver, type HostResolver } from '../webhooks/host-resolver.ts';
import { createWebhookMetrics } from '../webhooks/metrics.ts';
import { createRelay } from '../webhooks/relay.ts';
import { createWebhookTransport } from '../webhooks/transport.ts';
import { webhookUrlPolicy } from '../webhooks/url-policy.ts';
import type { Foundation } from './foundation.ts';

/** Webhooks (registrations, the relay, resends, test deliveries, the delivery log) and the events API. */
export function wireWebhooksAndEvents(
  config: Config,
  f: Pick<Foundation, 'db' | 'clock' | 'logger' | 'metrics' | 'reads' | 'scheduler'>,
  parts: { accounts: AccountService; resolver?: HostResolver; webhookRules?: 'sandbox' },
) {
  const { db, clock, logger } = f;
  const { accounts } = parts;
  const webhookTransport = createWebhookTransport({ mode: parts.webhookRules ?? config.mode });
  // The mode's webhook URL rules, chosen here once: the services only apply them.
  const webhookUrls = webhookUrlPolicy(parts.webhookRules ?? config.mode, parts.resolver ?? systemResolver);
  // webhook-timestamp is checked by receivers against their own clock: real time, even in a sandbox
  // whose clock was advanced.
  const webhookRelay = createRelay({
    db, clock, signingClock: systemClock, transport: webhookTransport, logger, metrics: createWebhookMetrics(f.metrics.registry),
    safetyPollMs: IDLE_SAFETY_POLL_MS,
  });
  // Issue 29: the account's events (list, one, live streams) and "deliver again since T".
  const drain = createDrainState();
  const eventLog = createEventLog({ db, accounts });
  /** Per-account test clocks (issue 29 item 3; sandbox only: in production no account is on one). */
  const testClocks = createTestClocks({ db, clock, enabled: config.mode === 'sandbox', scheduler: f.scheduler, webhookRelay, logger });
  return {
    /** The HTTP client of webhook deliveries (closed when the service stops; not exposed by the container). */
    webhookTransport,
    webhooks: createWebhookRegistrationService({ db, clock, urls: webhookUrls, secretOverlapS: config.webhookSecretOverlapS }),
    webhookRelay,
    webhookResend: createWebhookResendService({ db, clock, signingClock: systemClock, transport: webhookTransport, urls: webhookUrls }),
    /** Test deliveries of an event type to the account's URLs (admin API, portal). */
    webhookTests: createWebhookTestService({ db, clock, signingClock: systemClock, transport: webhookTransport }),
    /** The account's webhook attempts, paged and filtered (admin API). */
    webhookDeliveryLog: createDeliveryLog({ db, accounts, reads: f.reads }),
    /** Graceful shutdown's stage (src/http/drain.ts): GET /ready and every answer read it; main.ts moves it. */
    drain,
    /** The account's events as its webhooks carried them (events API). */
    eventLog,
    /** Live event streams (Server-Sent Events); every one ends when the service closes. */
    eventStreams: createEventStreams({ events: eventLog, drain, logger }),
    /** Queues an account's finished deliveries again (replay). */
    webhookReplay: createWebhookReplay({ db, clock, accounts, nowFor: testClocks.nowFor }),
    /** Per-account test clocks (sandbox): routes, and `enter(accountId)` for a served account's time. */
    testClocks,
  };
}
