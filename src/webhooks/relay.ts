import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import type { DB } from '../db/schema.ts';
import type { WebhookMetrics } from './metrics.ts';
import { deliveriesRepo, type AttemptLog, type ClaimedDelivery, type DeliveryResult } from './deliveries.repo.ts';
import { registrationsRepo } from './registrations.repo.ts';
import { retryDelayMs } from './retry-schedule.ts';
import { signatureHeaders } from './signature.ts';
import { signingSecretsAt } from './signing-secrets.ts';
import type { AttemptResult, WebhookTransport } from './transport.ts';
import { outgoingTraceparent } from '../observability/trace-context.ts';

export const USER_AGENT = 'pix-account-service-webhooks/1';

/**
 * The headers of one attempt: JSON, the registration's own headers, then the signature (one per
 * secret) and the W3C `traceparent` (the event's trace id with a new span id per attempt; an event
 * older than migration 983 has none: the current request's trace, or a fresh one).
 */
export function deliveryHeaders(input: {
  secrets: readonly string[];
  messageId: string;
  body: string;
  custom: Array<{ key: string; value: string }>;
  signedAt: Date;
  traceId: string | null;
}): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  for (const { key, value } of input.custom) headers[key.toLowerCase()] = value;
  return {
    ...headers,
    ...signatureHeaders(input.secrets, input.messageId, input.signedAt, input.body),
    traceparent: outgoingTraceparent(input.traceId ?? undefined),
  };
}

interface Outcome {
  result: DeliveryResult;
  log?: AttemptLog;
  disableWebhookId?: number;
}

export interface RelayOptions {
  db: Kysely<DB>;
  /**
   * The service clock: due times and retries (advancing the sandbox clock makes retries due). Leases
   * are liveness and are measured on real time (the database's clock), never on this one.
   */
  clock: Clock;
  /**
   * The clock of `webhook-timestamp`: receivers compare it with their own wall clock, so it stays
   * real time even when the sandbox clock has been advanced.
   */
  signingClock: Clock;
  transport: WebhookTransport;
  logger: Logger;
  metrics?: WebhookMetrics;
  batchSize?: number;
  maxInFlight?: number;
  pollMs?: number;
  /**
   * Set when `wake` is called for every delivery enqueued (the container wires NOTIFY to it): an idle
   * relay then sleeps until the next delivery is due, looking on its own only this often.
   */
  safetyPollMs?: number;
  /** How long a claim holds; longer than the attempt timeout, so a live relay never loses one. */
  leaseMs?: number;
  /** How long a finished attempt may wait for others to share its result-writing transaction. */
  flushDelayMs?: number;
  random?: () => number;
}

/**
 * The webhook relay. It claims due deliveries (FOR UPDATE SKIP LOCKED, under a lease, in a claim
 * that commits at once), posts them outside any transaction, and writes each result with the next
 * try or the final state afterwards, logging every attempt. In the background it keeps up to
 * `maxInFlight` attempts going and writes results in batches; `runDue` drains what is due now
 * (tests and the sandbox clock). Several relays on one database never send one attempt twice.
 */
export function createRelay(options: RelayOptions) {
  const { db, clock, logger, transport } = options;
  const batchSize = options.batchSize ?? 200;
  const maxInFlight = options.maxInFlight ?? 512;
  const pollMs = options.pollMs ?? 100;
  const leaseMs = options.leaseMs ?? 60_000;
  const flushDelayMs = options.flushDelayMs ?? 10;
  const random = options.random ?? Math.random;

  async function claim(limit = batchSize): Promise<ClaimedDelivery[]> {
    return deliveriesRepo.claim(db, { now: clock.now(), leaseSeconds: leaseMs / 1000, token: randomUUID(), limit });
  }

  function outcomeOf(d: ClaimedDelivery, attempt: AttemptResult): Outcome {
    // An account on a test clock: its attempts and retries are on that clock (issue 29 item 3).
    const at = d.clockTime ?? clock.now();
    const base = { id: d.id, claimToken: d.claimToken, attempts: d.attempt, statusCode: attempt.statusCode, error: attempt.error };
    const log: AttemptLog = {
      accountId: d.accountId,
      eventRowId: d.eventRowId,
      deliveryId: d.id,
      webhookId: d.webhookId,
      kind: 'delivery',
      attempt: d.attempt,
      url: d.url,
      statusCode: attempt.statusCode,
      durationMs: attempt.durationMs,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
      at,
    };
    const code = attempt.statusCode;
    if (code !== null && code >= 200 && code < 300) {
      return { result: { ...base, status: 'delivered', nextAttemptAt: at, deliveredAt: at }, log };
    }
    if (code === 410) {
      return {
        result: { ...base, status: 'failed', nextAttemptAt: at, deliveredAt: null, error: 'receiver answered 410 Gone: registration disabled' },
        log,
        disableWebhookId: d.webhookId,
      };
    }
    const delay = retryDelayMs(d.attempt, random);
    if (delay === null) return { result: { ...base, status: 'failed', nextAttemptAt: at, deliveredAt: null }, log };
    return { result: { ...base, status: 'pending', nextAttemptAt: new Date(at.getTime() + delay), deliveredAt: null }, log };
  }

  /** Sends one claimed delivery; a registration turned off since the fan-out cancels it unsent. */
  async function attempt(d: ClaimedDelivery): Promise<Outcome> {
    if (!d.active) {
      const at = clock.now();
      return {
        result: {
          id: d.id,
          claimToken: d.claimToken,
          status: 'cancelled',
          attempts: d.attempt - 1,
          nextAttemptAt: at,
          statusCode: null,
          error: 'registration disabled or deleted before delivery',
          deliveredAt: null,
        },
      };
    }
    try {
      // During a rotation's overlap both secrets sign (judged on the service clock, like the overlap's end).
      const secrets = d.secrets ? signingSecretsAt(d.secrets, clock.now()) : [await registrationsRepo.ensureSecret(db, d.accountId, clock.now())];
      const headers = deliveryHeaders({ secrets, messageId: d.messageId, body: d.body, custom: d.headers, signedAt: options.signingClock.now(), traceId: d.traceId });
      return outcomeOf(d, await transport.send({ url: d.url, body: d.body, headers }));
    } catch (error) {
      return outcomeOf(d, { statusCode: null, durationMs: 0, responseExcerpt: null, error: `relay error: ${(error as Error).message}` });
    }
  }

  function observe(outcomes: Outcome[]) {
    for (const o of outcomes) {
      const outcome = o.disableWebhookId ? 'gone' : o.result.status === 'pending' ? 'retry' : o.result.status;
      // One line per failed attempt (operations: "why does this receiver not get its webhooks?").
      if (outcome !== 'delivered') {
        logger.warn(
          { deliveryId: o.result.id, attempt: o.result.attempts, outcome, statusCode: o.result.statusCode, error: o.result.error, url: o.log?.url, nextAttemptAt: o.result.status === 'pending' ? o.result.nextAttemptAt : undefined },
          'webhook attempt failed',
        );
      }
      if (!options.metrics) continue;
      options.metrics.attempts.inc({ outcome });
      if (o.log) options.metrics.attemptDuration.observe(o.log.durationMs / 1000);
    }
  }

  async function commit(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    observe(outcomes);
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const written = await deliveriesRepo.writeResults(trx, outcomes.map((o) => o.result), now);
      if (written < outcomes.length) {
        logger.warn({ lost: outcomes.length - written }, 'webhook results written after their lease was taken over');
      }
      await deliveriesRepo.insertLogs(trx, outcomes.flatMap((o) => (o.log ? [o.log] : [])));
      const gone = outcomes.flatMap((o) => (o.disableWebhookId ? [o.disableWebhookId] : []));
      await registrationsRepo.disable(trx, [...new Set(gone)], 'receiver answered 410 Gone', now);
    });
  }

  /** Claims and sends everything due now, batch after batch; answers how many deliveries it handled. */
  async function runDue(): Promise<number> {
    let total = 0;
    for (let i = 0; i < 10_000; i++) {
      const claimed = await claim();
      if (claimed.length === 0) break;
      await commit(await Promise.all(claimed.map(attempt)));
      total += claimed.length;
    }
    return total;
  }

  // Background: a claim loop feeding up to maxInFlight concurrent attempts, results written in batches.
  let stopped = true;
  let loopDone: Promise<void> | undefined;
  let inFlight = 0;
  let wake: (() => void) | undefined;
  let idle: Array<() => void> = [];
  const queue: Outcome[] = [];
  let flushing: Promise<void> | undefined;

  /** A wake-up that came while the loop was not napping: the next nap is skipped. */
  let woken = false;
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        return resolve();
      }
      const timer = setTimeout(() => {
        wake = undefined;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });

  let flushTimer: NodeJS.Timeout | undefined;

  /**
   * Results are written in batches: the first result waits up to `flushDelayMs` for others (or
   * until a batch is full), so one transaction records many attempts.
   */
  function scheduleFlush() {
    if (queue.length === 0) return;
    if (queue.length >= batchSize || stopped) return flushNow();
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      flushNow();
    }, flushDelayMs);
  }

  function flushNow() {
    // A flush under way calls scheduleFlush again when it ends.
    if (flushing || queue.length === 0) return;
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = queue.splice(0);
    flushing = commit(batch)
      .catch((error) => logger.error({ err: error, results: batch.length }, 'writing webhook results failed; their leases will lapse and they will be retried'))
      .finally(() => {
        flushing = undefined;
        // A retry just written may be due before the idle loop would look again.
        if (options.safetyPollMs !== undefined && batch.some((o) => o.result.status === 'pending')) wakeUp();
        // What arrived meanwhile has waited long enough.
        flushNow();
        settleIdle();
      });
  }

  function settleIdle() {
    if (inFlight === 0 && !flushing && queue.length === 0) {
      const waiting = idle;
      idle = [];
      for (const resolve of waiting) resolve();
    }
  }

  /** The last claim failed (the database is away): the loop's longer pause is kept. */
  let claimFailing = false;

  async function loop() {
    while (!stopped) {
      const free = maxInFlight - inFlight;
      if (free <= 0) {
        await nap(pollMs);
        continue;
      }
      let claimed: ClaimedDelivery[] = [];
      try {
        claimed = await claim(Math.min(free, batchSize));
        claimFailing = false;
      } catch (error) {
        claimFailing = true;
        logger.error({ err: error }, 'claiming webhook deliveries failed');
        await nap(pollMs * 10);
        continue;
      }
      for (const d of claimed) {
        inFlight += 1;
        void attempt(d).then((outcome) => {
          inFlight -= 1;
          queue.push(outcome);
          scheduleFlush();
          if (inFlight === maxInFlight - 1) wake?.();
        });
      }
      if (claimed.length === 0 && options.safetyPollMs !== undefined) await nap(await idleDelay(options.safetyPollMs));
      else if (claimed.length < Math.min(free, batchSize)) await nap(pollMs);
    }
  }

  /** Until the next pending delivery (or lease) falls due, at most `safetyMs`. */
  async function idleDelay(safetyMs: number): Promise<number> {
    try {
      const next = await deliveriesRepo.nextDue(db);
      if (!next) return safetyMs;
      return Math.max(pollMs, Math.min(safetyMs, next.getTime() - clock.now().getTime()));
    } catch (error) {
      logger.error({ err: error }, 'looking for the next webhook delivery failed');
      return pollMs * 10;
    }
  }

  /** Polling while nothing listens (due-wakeups.ts): claim now, unless claims are failing (their pause stands). */
  function lookSoon() {
    if (!claimFailing) wakeUp();
  }

  /** A delivery was committed (here or by another instance): claim now instead of at the next poll. */
  function wakeUp() {
    if (stopped) return;
    if (wake) wake();
    else woken = true;
  }

  return {
    claim,
    runDue,
    wakeUp,
    lookSoon,
    start() {
      if (!stopped) return;
      stopped = false;
      loopDone = loop();
    },
    /** Stops claiming, then waits for the attempts in flight and their results. */
    async stop() {
      stopped = true;
      wake?.();
      await loopDone;
      scheduleFlush();
      if (inFlight > 0 || flushing || queue.length > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
