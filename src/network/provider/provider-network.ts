import { readFileSync } from 'node:fs';
import { traceFrom, withTrace } from '../../observability/trace-context.ts';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { ConfigError, type ProviderConfig } from '../../config.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { toBrlNumber } from '../../domain/money.ts';
import type { DB } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { ChargeOrder, KeyLookup, NetworkSink, PaymentOrder, PaymentStatus, PixNetwork, SubmitAnswer } from '../pix-network.ts';
import { NOTICE_PATH } from '../provider-notices.ts';
import { createChargeBook } from './charge-book.ts';
import { CHARGE_CHECK, registerChargeChecks } from './charge-checks.ts';
import { createCircuitBreaker, type CircuitSnapshot } from './circuit-breaker.ts';
import { createProviderHttp } from './http-client.ts';
import { externalIdOf, paymentRequestOf, paymentStatusOf, submitAnswerOf, ADAPTER_REJECTIONS } from './mapping.ts';
import { createNoticeInbox } from './notice-inbox.ts';
import { createProviderApi, errorCodeOf, errorMessageOf, ProviderAuthRefused, ProviderUnavailable, type RetryPolicy } from './provider-api.ts';
import { readStates, recordReconciliation } from './provider-state.ts';
import { createStatementCheck, registerDailyStatementCheck, type StatementCheck } from './statement-check.ts';
import type { TokenSnapshot } from './token-cache.ts';
import type { CashInAnswer, CashInRequest, ProviderErrorBody, TransactionSearch } from './types.ts';
import { registerWebhookRegistration } from './webhook-registration.ts';

/** Bounds of every call to the provider (docs/decisions.md "Provider adapter"). */
export const PROVIDER_LIMITS = {
  /** One exchange, connection included. */
  timeoutMs: 10_000,
  /** Jobs (payments, checks): 3 tries, 0.25 s doubling to 2 s, jittered: at most ~35 s; the step's lease is renewed while they run (scheduler.ts). */
  retry: { attempts: 3, baseMs: 250, maxMs: 2_000 } satisfies RetryPolicy,
  /** A customer waits for a charge registration: 2 tries. */
  chargeAttempts: 2,
  /** Failures in a row that open the circuit, and how long it stays open before a trial call. */
  circuit: { threshold: 5, cooldownMs: 15_000 },
  /** Payments asked about at once. */
  concurrency: 4,
} as const;

/** What the adapter tells operators about itself (GET /admin/network/status). */
export interface ProviderHealth {
  adapter: 'provider';
  url: string;
  circuit: CircuitSnapshot;
  token: TokenSnapshot;
  lastNotice: { webhookId: string; event: string; receivedAt: Date; outcome: string | null } | null;
  webhooks: Record<string, unknown> | null;
  reconciliation: Record<string, unknown> | null;
  chargesAwaitingOutcome: number;
  lastStatementCheck: StatementCheck | null;
}

/** Runs `work` over `items` with at most `limit` at once, answers in order. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return out;
}

function readPem(file: string, variable: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(variable, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ${file}`);
  }
}

export interface ProviderTls {
  cert: string;
  key: string;
  ca?: string;
}

/** The client certificate, its key and the optional CA, read at start (before anything else): a file that cannot be read names its variable. */
export function readProviderTls(config: ProviderConfig): ProviderTls {
  const ca = config.caFile ? readPem(config.caFile, 'PROVIDER_CA_FILE') : undefined;
  return { cert: readPem(config.certFile, 'PROVIDER_CERT_FILE'), key: readPem(config.keyFile, 'PROVIDER_KEY_FILE'), ...(ca ? { ca } : {}) };
}

/**
 * The provider adapter: this service's customers' money moves through one account at an upstream
 * PIX provider whose API is the interface this service itself implements (a pooled account). Our
 * transaction ids are the provider's `externalId`s (its idempotency keys), so a submission repeated
 * after any failure never pays twice. Notices arrive at `POST /network/provider/webhooks`;
 * reconciliation asks the provider about payments (the settlement's check step, at `checkAt`) and
 * charges (the charge check) no notice has finished after PROVIDER_RECONCILE_AFTER_S.
 */
export function createProviderNetwork(deps: {
  db: Kysely<DB>;
  clock: Clock;
  scheduler: Scheduler;
  config: ProviderConfig;
  tls: ProviderTls;
  publicUrl: string;
  logger: Logger;
  /** Tests: a faster circuit or retries. */
  limits?: Partial<typeof PROVIDER_LIMITS>;
  /** Each provider exchange's duration and outcome (metrics). */
  observeCall?: ((seconds: number, outcome: '2xx' | '4xx' | '5xx' | 'error') => void) | undefined;
}) {
  const limits = { ...PROVIDER_LIMITS, ...deps.limits };
  const logger = deps.logger.child({ component: 'provider' });
  const http = createProviderHttp({ baseUrl: deps.config.url, tls: deps.tls, timeoutMs: limits.timeoutMs });
  const breaker = createCircuitBreaker(limits.circuit);
  const api = createProviderApi({
    http,
    breaker,
    credentials: { clientId: deps.config.clientId, clientSecret: deps.config.clientSecret },
    certHeader: deps.config.certHeader ? encodeURIComponent(deps.tls.cert) : undefined,
    retry: limits.retry,
    logger,
    observeCall: deps.observeCall,
  });
  const checkAfterMs = deps.config.reconcileAfterS * 1000;
  const book = createChargeBook(deps.db);
  let sink: NetworkSink | undefined;
  const subscribed = (): NetworkSink => {
    if (!sink) throw new Error('no sink subscribed to the provider network');
    return sink;
  };
  const noticeUrl = `${deps.publicUrl}${NOTICE_PATH}`;
  const inbox = createNoticeInbox({ db: deps.db, clock: deps.clock, secret: deps.config.webhookSecret, book, sink: subscribed, logger });
  const statements = createStatementCheck({ db: deps.db, clock: deps.clock, api, clearing: 'network:provider', logger });
  const daily = registerDailyStatementCheck({ db: deps.db, clock: deps.clock, scheduler: deps.scheduler, checks: statements });
  const registration = registerWebhookRegistration({ db: deps.db, clock: deps.clock, scheduler: deps.scheduler, api, url: noticeUrl, logger });
  registerChargeChecks({ db: deps.db, clock: deps.clock, scheduler: deps.scheduler, api, book, sink: subscribed, checkAfterMs, logger });

  const checkAt = () => new Date(deps.clock.now().getTime() + checkAfterMs);
  /** An answer we cannot trust: the payment stays PENDING and is asked about later. */
  function unknownOf(error: unknown): Extract<SubmitAnswer, { status: 'unknown' }> {
    if (error instanceof ProviderUnavailable) return { status: 'unknown', reason: error.reason, retryAt: new Date(deps.clock.now().getTime() + error.retryAfterMs) };
    if (error instanceof ProviderAuthRefused) return { status: 'unknown', reason: error.message, retryAt: checkAt() };
    throw error;
  }

  /** The provider's id of a PIX we received, by its end-to-end id (the list route, up to 93 days back in 31-day windows). */
  async function receivedId(endToEndId: string): Promise<string | undefined> {
    const today = deps.clock.now();
    const day = (back: number) => new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    const windows = [undefined, [day(62), day(31)], [day(93), day(63)]] as const;
    for (const window of windows) {
      const query = new URLSearchParams({ endToEndId, type: 'PAYMENT', size: '10', ...(window ? { startDate: window[0], endDate: window[1] } : {}) });
      const answer = await api.call('GET', `/api/transactions?${query}`);
      if (answer.status !== 200) throw new ProviderUnavailable(`GET /api/transactions answered HTTP ${answer.status}`, checkAfterMs);
      const found = (answer.body as TransactionSearch).data?.find((t) => t.endToEndId === endToEndId);
      if (found) return found.transactionId;
    }
    return undefined;
  }

  async function submitOne(order: PaymentOrder): Promise<SubmitAnswer> {
    const request = paymentRequestOf(order, deps.clock.now());
    if (request.route === 'reject') return { status: 'rejected', ...request.rejection };
    try {
      if (request.route === 'refund_in') {
        const original = await receivedId(request.originalEndToEndId);
        if (!original) return { status: 'rejected', ...ADAPTER_REJECTIONS.originalNotFound };
        return submitAnswerOf(await api.call('POST', `/api/pix/refund-in/${encodeURIComponent(original)}`, request.body), checkAt());
      }
      return submitAnswerOf(await api.call('POST', request.path, request.body), checkAt());
    } catch (error) {
      return unknownOf(error);
    }
  }

  async function statusOne(order: PaymentOrder): Promise<PaymentStatus> {
    try {
      return paymentStatusOf(await api.call('GET', `/api/pix/transaction/${encodeURIComponent(externalIdOf(order))}`), checkAt());
    } catch (error) {
      return unknownOf(error);
    }
  }

  const network = {
    ledgerAccount: 'network:provider',
    // The provider's own minimum is not published: the provider's refusal is answered as it comes.
    chargeRules: { provider: new URL(deps.config.url).host, minExpirationSeconds: 30 },

    /**
     * The provider's public API has no key look-up (its OpenAPI: cash-out, cash-out by QR code,
     * refund-in, status and lists; nothing answers who holds a key): every key's holder is unknown
     * before paying. Its cash-out requires the holder's document (`details.document`), so the payer
     * must name it unless the key is a CPF or CNPJ. A key that does not exist is refused by the
     * provider (or the receiving bank): the payment ends ERROR with its code and the money released;
     * a payment that settles tells who received it (the CashOut notice's counterpart, the status
     * query's counterpart fields), which then fills the transaction's counterpart.
     */
    async lookupKey(): Promise<KeyLookup> {
      return { status: 'unknown_holder', documentRequired: true };
    },

    // Each order's calls (and their retries) carry the trace of the request that ordered it.
    async submitPayments(orders: PaymentOrder[]): Promise<SubmitAnswer[]> {
      return mapLimited(orders, limits.concurrency, (order) => withTrace(traceFrom(order.trace), () => submitOne(order)));
    },

    async paymentStatuses(orders: PaymentOrder[]): Promise<PaymentStatus[]> {
      const statuses = await mapLimited(orders, limits.concurrency, (order) => withTrace(traceFrom(order.trace), () => statusOne(order)));
      const finished = statuses.filter((s) => s.status === 'settled' || s.status === 'rejected').length;
      await recordReconciliation(deps.db, deps.clock.now(), { kind: 'payments', asked: orders.length, finished });
      return statuses;
    },

    async registerCharge(order: ChargeOrder) {
      const body: CashInRequest = {
        transaction: {
          value: toBrlNumber(order.amount),
          description: (order.description || 'Cobrança PIX').slice(0, 140),
          externalId: order.reference,
          expirationTime: order.expirationSeconds,
          generateQrCode: false,
        },
        // Informational at the provider; a cob without a debtor names the receiver.
        payer: order.payer ? { fullName: order.payer.name.slice(0, 100), document: order.payer.document } : { fullName: order.receiver.name.slice(0, 100), document: order.receiver.document },
      };
      let answer;
      try {
        answer = await api.call('POST', '/api/pix/cash-in', body, { attempts: limits.chargeAttempts });
      } catch (error) {
        if (error instanceof ProviderUnavailable || error instanceof ProviderAuthRefused) {
          throw new DomainError('PROVIDER_UNAVAILABLE', { provider: network.chargeRules.provider }, `The payment provider cannot be reached (${error.message}). Nothing was stored; retry.`);
        }
        throw error;
      }
      const errorBody = answer.body as ProviderErrorBody | undefined;
      if (answer.status !== 201 && answer.status !== 200) {
        if (errorCodeOf(errorBody) === 'PROVIDER_EXPIRATION_BELOW_MINIMUM') {
          throw new DomainError('PIX_PROVIDER_EXPIRATION_BELOW_MINIMUM', { ...errorBody?.details, provider: network.chargeRules.provider }, errorMessageOf(errorBody, 'transaction.expirationTime is below the provider minimum'));
        }
        logger.error({ status: answer.status, body: errorBody, reference: order.reference }, 'the provider refused a charge registration');
        throw new DomainError(
          'PROVIDER_UNAVAILABLE',
          { provider: network.chargeRules.provider, providerStatus: answer.status, providerCode: errorCodeOf(errorBody) ?? null },
          `The payment provider refused the charge (${errorCodeOf(errorBody) ?? `HTTP ${answer.status}`}). Nothing was stored.`,
        );
      }
      const pixCode = (answer.body as Partial<CashInAnswer>).pixCode;
      if (typeof pixCode !== 'string' || pixCode === '') throw new DomainError('PROVIDER_UNAVAILABLE', { provider: network.chargeRules.provider }, 'The payment provider answered the charge without a pixCode.');
      // The adapter's books and the charge's reconciliation, before our charge is stored.
      const now = deps.clock.now();
      await transact(deps.db, async (trx) => {
        await trx.insertInto('provider_charges').values({ reference: order.reference, expires_at: order.expiresAt, registered_at: now }).onConflict((oc) => oc.column('reference').doNothing()).execute();
        await deps.scheduler.schedule(trx, CHARGE_CHECK, checkAt(), { reference: order.reference });
      });
      return { pixCode };
    },

    subscribe(s: NetworkSink) {
      sink = s;
    },
  } satisfies PixNetwork;

  return {
    ...network,
    /** `POST /network/provider/webhooks`: verify, deduplicate, apply. */
    receiveNotice: inbox.receive,
    /** The circuit breaker refuses calls now (provider_circuit_open). */
    circuitOpen: () => breaker.state() === 'open',
    /** The daily statement check, now (operators: POST /admin/network/statement-check). */
    runStatementCheck: statements.run,
    /** On start: the webhook registration and the daily statement check are scheduled. */
    async onStart(): Promise<void> {
      await registration.ensureScheduled();
      await daily.ensureScheduled();
    },
    async health(): Promise<ProviderHealth> {
      const [last, states, charges, statement] = await Promise.all([inbox.last(), readStates(deps.db), book.openCount(), statements.last()]);
      return {
        adapter: 'provider',
        url: deps.config.url,
        circuit: breaker.snapshot(),
        token: api.tokens.snapshot(),
        lastNotice: last ? { webhookId: last.webhook_id, event: last.event, receivedAt: last.received_at, outcome: last.outcome } : null,
        webhooks: states.webhook_registration?.value ?? null,
        reconciliation: states.reconciliation?.value ?? null,
        chargesAwaitingOutcome: charges,
        lastStatementCheck: statement ?? null,
      };
    },
    close: () => http.close(),
  };
}

export type ProviderNetwork = ReturnType<typeof createProviderNetwork>;
