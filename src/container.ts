import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { AdjustableClock, systemClock, type Clock } from './domain/clock.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { functionVersionsBeat } from './db/function-versions-beat.ts';
import { createScheduler } from './jobs/scheduler.ts';
import { dueWakeups, IDLE_SAFETY_POLL_MS } from './jobs/due-wakeups.ts';
import { checkLedger, createLedger } from './ledger/ledger.ts';
import { createMetrics, observeRuntime } from './metrics.ts';
import { registerBacklogMetrics } from './observability/backlog.ts';
import type { PixNetwork } from './network/pix-network.ts';
import { createSandboxNetwork } from './network/sandbox/sandbox-network.ts';
import { productionScenarioReader, sandboxScenarioReader } from './network/scenario-header.ts';
import { createProviderNetwork, readProviderTls } from './network/provider/provider-network.ts';
import { createSuspenseService } from './services/suspense/suspense.service.ts';
import { createNetworkSink } from './services/network-sink.ts';
import { createNetworkStatus } from './services/network-status.ts';
import { createAccountService } from './services/accounts/account.service.ts';
import { createCertificateService } from './services/auth/certificate.service.ts';
import { createCredentialService } from './services/auth/credential.service.ts';
import { createBearerAuthenticator } from './services/auth/bearer-authenticator.ts';
import { createAccessLease } from './services/auth/access-lease.ts';
import { createSigningKeys } from './services/auth/signing-keys.ts';
import { createSecretHasher } from './services/auth/secret-hash.ts';
import { loadSecretHashKeys } from './services/auth/secret-hash-keys.ts';
import { createFailureLimits } from './services/auth/failure-limits.ts';
import { createSecretSealer } from './services/portal/secret-sealer.ts';
import { createTwoFactorService } from './services/portal/two-factor.service.ts';
import { createTokenGrantService } from './services/auth/token-grant.service.ts';
import { createTokenService } from './services/auth/token.service.ts';
import { createSandboxClockStore } from './services/sandbox/sandbox-clock.ts';
import { accountAwareClock } from './services/test-clocks/account-time.ts';
import { createTestClocks } from './services/test-clocks/test-clock.service.ts';
import { createDepositService } from './services/sandbox/deposit.service.ts';
import { registerPayoutBatchMetrics } from './services/payouts/batch-metrics.ts';
import { createOutgoingPayouts } from './services/payouts/outgoing-payout.ts';
import { registerPayoutHooks } from './services/payouts/payout-events.ts';
import { createCashOutService } from './services/payouts/cash-out.service.ts';
import { createCashOutQrCodeService } from './services/payouts/cash-out-qrcode.service.ts';
import { createDictTransferService } from './services/payouts/dict-transfer.service.ts';
import { createPayoutRefundService } from './services/payouts/payout-refund.service.ts';
import { createSandboxDictKeys } from './services/payouts/sandbox-dict-keys.service.ts';
import { createTransactionsService } from './services/transactions/transactions.service.ts';
import { createReceivedPix } from './services/received-pix.ts';
import { createAccountBulkhead } from './db/account-bulkhead.ts';
import { createDatabaseProbe } from './db/database-probe.ts';
import { openReadReplica } from './db/read-replica.ts';
import { createReadRouting, registerReplicaLagMetric } from './db/read-routing.ts';
import type { OnUsCharges } from './services/payouts/on-us-charges.port.ts';
import { createOnUsCredit } from './services/payouts/on-us.ts';
import { createSettlement } from './services/settlement/settlement.service.ts';
import { createIdempotency } from './services/idempotency/idempotency.service.ts';
import { bankByIspb } from './domain/banks.ts';
import { createChargeLocations } from './services/charges/charge-location.ts';
import { createChargePayments } from './services/charges/charge-payment.ts';
import { createChargeService } from './services/charges/charge.service.ts';
import { createChargeSplits } from './services/charges/charge-splits.ts';
import { createOutbox } from './webhooks/outbox.ts';
import { createRefundService } from './services/refunds/refund.service.ts';
import { registerRefundHooks } from './services/refunds/refund-settlement.ts';
import { createMedService } from './services/med/med.service.ts';
import { createRateLimiter } from './services/rate-limit/fixed-window.ts';
import { createWebhookRegistrationService } from './services/webhooks/registration.service.ts';
import { createWebhookResendService } from './services/webhooks/resend.service.ts';
import { createWebhookTestService } from './services/webhooks/test-delivery.service.ts';
import { createDeliveryLog } from './services/webhooks/delivery-log.service.ts';
import { createWebhookReplay } from './services/webhooks/replay.service.ts';
import { createEventLog } from './services/events/event-log.service.ts';
import { createEventStreams } from './services/events/event-streams.ts';
import { systemResolver, type HostResolver } from './webhooks/host-resolver.ts';
import { createWebhookMetrics } from './webhooks/metrics.ts';
import { createRelay } from './webhooks/relay.ts';
import { createWebhookTransport } from './webhooks/transport.ts';
import { webhookUrlPolicy } from './webhooks/url-policy.ts';
import { createAuditLog } from './services/audit/audit-log.ts';
import { createDrainState } from './http/drain.ts';
import { createPortalPeopleService } from './services/portal/portal-people.service.ts';
import { createPortalSessionService } from './services/portal/portal-sessions.service.ts';
import { createPortalReads, createRoutedPortalReads } from './portal/portal-reads.repo.ts';

export interface ContainerOptions {
  /** Tests pass a frozen AdjustableClock; the sandbox gets a running one; production the system clock. */
  clock?: Clock;
  database?: Database;
  logger?: Logger;
  /** Resolves webhook host names at registration (production); tests pass one that needs no DNS. */
  resolver?: HostResolver;
  /** Wraps the network adapter the services talk to (fault-injection tests: a network that fails on cue). */
  wrapNetwork?: (network: PixNetwork) => PixNetwork;
  /**
   * Tests of production mode that follow a payment to a local webhook receiver: the sandbox's webhook
   * URL rules and transport (http://127.0.0.1 allowed), everything else as production.
   */
  webhookRules?: 'sandbox';
}

/**
 * The one wiring file: builds the database, repositories, services and adapters, and nothing else
 * constructs concrete dependencies.
 */
export async function createContainer(config: Config, options: ContainerOptions = {}) {
  const logger =
    options.logger ??
    pino({
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-ssl-client-cert"]', '*.clientSecret', '*.client_secret'], censor: '[redacted]' },
    });
  const clock: Clock = options.clock ?? (config.mode === 'sandbox' ? new AdjustableClock({}) : systemClock);
  // The provider's client certificate first: a file that cannot be read stops the start at once.
  const providerTls = config.provider ? readProviderTls(config.provider) : undefined;
  const sandboxClock = clock instanceof AdjustableClock ? clock : undefined;
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.database.poolSize,
      timeouts: config.database.timeouts,
      preparedStatements: config.database.preparedStatements,
      listenUrl: config.database.listenUrl,
      logger,
    }));
  await migrate(database.db);
  const db = database.db;
  // The running sandbox clock (not a clock given by a test) keeps its lead across restarts.
  const sandboxClockStore = sandboxClock && !sandboxClock.frozen ? createSandboxClockStore({ db, clock: sandboxClock }) : undefined;
  await sandboxClockStore?.restore();

  const metrics = createMetrics();
  // DATABASE_READ_URL: the read-only pages and routes read on the replica while it is fresh for the caller.
  const readReplica =
    config.databaseRead && database.engine === 'postgres'
      ? openReadReplica({ url: config.databaseRead.url, primary: db, maxLagMs: config.databaseRead.maxLagMs, poolSize: config.database.poolSize, timeouts: config.database.timeouts, logger })
      : undefined;
  const reads = createReadRouting({ primary: db, replica: readReplica, logger });
  registerReplicaLagMetric(metrics.registry, readReplica);
  // The time rules of accounts (issue 29 item 3): an account on a sandbox test clock sees that clock's
  // time (services/test-clocks/account-time.ts); service concerns (tokens, limits of requests,
  // sessions, leases) keep `clock`.
  const accountClock = accountAwareClock(clock);
  const ledger = createLedger({ clock: accountClock });
  const outbox = createOutbox({ clock: accountClock });
  const scheduler = createScheduler({ db, clock, logger, metrics, concurrency: database.engine === 'postgres' ? 2 : 1, safetyPollMs: IDLE_SAFETY_POLL_MS });
  // The PIX network (PIX_NETWORK): the sandbox simulator, whose routes drive it, or the upstream
  // provider of production (src/network/provider/: a pooled account at a provider).
  const sandboxNetwork =
    config.mode === 'sandbox'
      ? createSandboxNetwork({
          db, clock: accountClock, scheduler,
          settlementDelayMs: config.sandboxSettlementDelayMs,
          institutionIspb: config.institutionIspb,
          publicHost: config.publicHost,
          minChargeExpirationSeconds: config.sandboxMinExpirationS,
        })
      : undefined;
  const providerNetwork =
    config.pixNetwork === 'provider' && config.provider && providerTls
      ? createProviderNetwork({
          db, clock, scheduler, config: config.provider, tls: providerTls, publicUrl: config.publicUrl, logger,
          observeCall: (seconds, outcome) => metrics.providerCallDuration.observe({ outcome }, seconds),
        })
      : undefined;
  const adapter = sandboxNetwork ?? providerNetwork;
  if (!adapter) throw new Error(`no PIX network for PIX_NETWORK=${config.pixNetwork} in ${config.mode} mode`);
  const network: PixNetwork = options.wrapNetwork ? options.wrapNetwork(adapter) : adapter;
  const scenarios = config.mode === 'sandbox' ? sandboxScenarioReader : productionScenarioReader;
  const accounts = createAccountService({ db, clock, reads });
  /** Whether the bearer guard may use its still-active memory; what revocations wait on (access-lease.ts). */
  const accessLease = createAccessLease({ db, listen: database.listen, logger });
  const certificates = createCertificateService({ db, clock, accounts, accessChanges: accessLease });
  const secretHashKeys = await loadSecretHashKeys({ db, clock, configured: config.clientSecretHashKey, warnWhenUnset: config.mode === 'production', logger });
  const secrets = createSecretHasher(secretHashKeys);
  const credentials = createCredentialService({
    db, clock, accounts, secrets,
    accessChanges: accessLease,
  });
  const signingKeys = createSigningKeys({ db, clock });
  await signingKeys.ensure();
  const tokens = createTokenService({ clock, keys: signingKeys, issuer: config.publicUrl });
  /** Failure limits (token routes, admin guard), in the database so every instance shares them; the sandbox never limits a loopback admin. */
  const authFailures = createFailureLimits({ db, clock, family: 'api', loopbackAdminUnlimited: config.mode === 'sandbox' });
  /** Verifies account access tokens; remembers still-active answers while the access lease allows. */
  const accountTokens = createBearerAuthenticator({ db, tokens, clock, trust: accessLease });
  const tokenGrants = createTokenGrantService({ db, clock, tokens, logger, failures: authFailures, secrets });
  /** A PIX received with no charge behind it (deposits, on-us credits, suspense assignments): built once. */
  const receivePix = createReceivedPix({ clock: accountClock, ledger, outbox });
  const deposits = createDepositService({ db, clock: accountClock, receivePix });
  const charges = createChargeService({ db, clock: accountClock, scheduler, network, scenarios });
  const chargeLocations = createChargeLocations({ db, clock: accountClock, signingKeys });
  // The one settlement path of every outgoing debit (registerHook/start/finishNow), the one
  // idempotency mechanism, and the receiving side of on-us payments: built once, here, and handed
  // to the features that use them, so no feature builds another's pieces and no wiring is late.
  const settlement = createSettlement({ db, clock: accountClock, ledger, scheduler, network, outbox, logger });
  const idempotency = createIdempotency({ db, clock });
  const institution = { ispb: config.institutionIspb, name: bankByIspb(config.institutionIspb)?.name ?? config.institutionName };
  const creditOnUs = createOnUsCredit({ clock: accountClock, receivePix, institution });
  // Charges: split payouts (settled by the settlement path, on-us through creditOnUs), then payments.
  // The split payouts go through the payouts' one debit admission (built below; called only when a split job runs).
  const chargeSplits = createChargeSplits({ db, clock: accountClock, config, scheduler, admitDebit: (trx, req) => payouts.payouts.admitIn(trx, req), logger });
  const chargePayments = createChargePayments({
    db, clock: accountClock, config, ledger, outbox, scheduler, networkAccount: network.ledgerAccount, splits: chargeSplits,
  });
  // One account's money commands hold at most a quarter of the pool at once (per process) and wait
  // for their turn and their locks within the lock timeout (issue 20, item 2; account-bulkhead.ts).
  const lockTimeoutMs = database.bounds?.lockTimeoutMs ?? config.database.timeouts.lockMs;
  const bulkhead = createAccountBulkhead({ perAccount: Math.max(1, Math.floor((database.bounds?.poolSize ?? config.database.poolSize) / 4)), lockTimeoutMs });
  // Payouts: cash-out by key and QR code (paying our own charges on-us), /dict/pix, payout refunds.
  // Each service once, over what was built above; the settlement path learns how a payout ends.
  registerPayoutHooks({ settlement });
  const outgoingPayouts = createOutgoingPayouts({
    db, clock: accountClock, settlement, creditOnUs, logger,
    onUsCharges: chargePayments satisfies OnUsCharges,
    institutionIspb: config.institutionIspb,
    // PGlite runs one statement at a time: one group-commit batch in flight; PostgreSQL: a few.
    batchesInFlight: database.engine === 'postgres' ? 3 : 1,
    // A batch waits for its accounts at most a quarter of the lock timeout (and 250 ms): a held
    // account costs the others that much, never the lock timeout.
    batchLockWaitMs: Math.min(250, Math.max(1, Math.floor(lockTimeoutMs / 4))),
    bulkhead,
  });
  const transactions = createTransactionsService({ db, clock: accountClock, reads });
  const payouts = {
    /** Reads X-Sandbox-Scenario (the sandbox) or refuses it (production). */
    scenarios,
    institution,
    /** The one admission of every payout (batched): cash-out by key and QR code, /dict/pix. */
    payouts: outgoingPayouts,
    cashOut: createCashOutService({ db, network, payouts: outgoingPayouts, institution }),
    cashOutQrCode: createCashOutQrCodeService({ db, network, payouts: outgoingPayouts, institution, publicHost: config.publicHost }),
    dictTransfers: createDictTransferService({ db, clock: accountClock, network, payouts: outgoingPayouts, idempotency, institution }),
    /** Payouts the receiving bank sent back. */
    refunds: createPayoutRefundService({ db, clock: accountClock, ledger, outbox, institutionIspb: config.institutionIspb, networkAccount: network.ledgerAccount }),
    /** The simulated key directory's entries (sandbox routes). */
    dictKeys: createSandboxDictKeys({ db, clock }),
  };
  registerPayoutBatchMetrics(metrics.registry, () => outgoingPayouts.batchStats());
  observeRuntime(metrics, { pool: database.poolStats, batcher: outgoingPayouts.batchStats });
  registerBacklogMetrics(metrics.registry, { db, clock, logger, jobKinds: () => scheduler.kinds(), circuitOpen: () => providerNetwork?.circuitOpen() ?? false });
  // Refunds (refund-in, devolucao) settle through the same settlement job; MED feeds the same model.
  const refunds = createRefundService({ db, clock: accountClock, institutionIspb: config.institutionIspb, admitDebit: payouts.payouts.admitIn, bulkhead });
  registerRefundHooks(settlement);
  const meds = createMedService({ db, clock: accountClock, ledger, outbox, institution: { ispb: config.institutionIspb, name: config.institutionName }, admitDebit: payouts.payouts.admitIn, settlement });
  // Money on the pooled account that names no charge we can credit, until an operator assigns it.
  const suspense = createSuspenseService({ db, clock, ledger, outbox, receivePix, network: network.ledgerAccount });
  // What the network says on its own initiative (payment outcomes, money received, payout returns,
  // MED notices) reaches the same services as everything else: one sink, subscribed once, whichever
  // adapter runs.
  adapter.subscribe(
    createNetworkSink({
      db, logger, suspense, settlement, deposits, meds,
      networkAccount: network.ledgerAccount,
      charges: chargePayments,
      returnPayout: (accountId, payout, amount, endToEndId) => payouts.refunds.refund(accountId, payout, amount, endToEndId),
    }),
  );
  // The webhook registration at the provider and the daily statement check, as jobs.
  await providerNetwork?.onStart();
  const networkStatus = createNetworkStatus({ db, network, provider: providerNetwork, suspense });
  /** Fixed-window rate limits kept in the database (shared by every instance). */
  const rateLimiter = createRateLimiter({ db, clock });
  const webhookTransport = createWebhookTransport({ mode: options.webhookRules ?? config.mode });
  // The mode's webhook URL rules, chosen here once: the services only apply them.
  const webhookUrls = webhookUrlPolicy(options.webhookRules ?? config.mode, options.resolver ?? systemResolver);
  const webhooks = createWebhookRegistrationService({ db, clock, urls: webhookUrls, secretOverlapS: config.webhookSecretOverlapS });
  // webhook-timestamp is checked by receivers against their own clock: real time, even in a sandbox
  // whose clock was advanced.
  const webhookRelay = createRelay({
    db, clock, signingClock: systemClock, transport: webhookTransport, logger, metrics: createWebhookMetrics(metrics.registry),
    safetyPollMs: IDLE_SAFETY_POLL_MS,
  });
  const webhookResend = createWebhookResendService({ db, clock, signingClock: systemClock, transport: webhookTransport, urls: webhookUrls });
  const webhookTests = createWebhookTestService({ db, clock, signingClock: systemClock, transport: webhookTransport });
  /** Per-account test clocks (issue 29 item 3; sandbox only: in production no account is on one). */
  const testClocks = createTestClocks({ db, clock, enabled: config.mode === 'sandbox', scheduler, webhookRelay, logger });
  const webhookDeliveryLog = createDeliveryLog({ db, accounts, reads });
  // Issue 29: the account's events (list, one, live streams) and "deliver again since T".
  const drain = createDrainState();
  const eventLog = createEventLog({ db, accounts });
  const eventStreams = createEventStreams({ events: eventLog, drain, logger });
  const webhookReplay = createWebhookReplay({ db, clock, accounts, nowFor: testClocks.nowFor });
  // Portal (issue 14): people, sessions and the audit log. Sessions and invitations run on real time:
  // advancing the sandbox clock must not sign anyone out.
  const audit = createAuditLog({ db, clock });
  const portalFailures = createFailureLimits({ db, clock: systemClock, family: 'portal' });
  const portalPeople = createPortalPeopleService({
    db, clock: systemClock, accounts, audit, failures: portalFailures, publicBaseUrl: config.publicUrl,
  });
  const portalSessions = createPortalSessionService({ db, clock: systemClock });
  // Issue 30: TOTP two-factor sign-in; secrets sealed under a key derived from the client-secret hash key.
  const portalTwoFactor = createTwoFactorService({
    db, clock: systemClock, audit, failures: createFailureLimits({ db, clock: systemClock, family: 'portal' }),
    sealer: createSecretSealer(secretHashKeys, 'portal-totp-secret'), issuer: config.institutionName,
  });
  const background: Array<{ start(): void; stop(): Promise<void> }> = [
    // Stopped last (close runs this list backwards): its pool closes after everything that reads.
    ...(readReplica ? [readReplica] : []),
    // Stopped after the scheduler (close runs this list backwards): the provider's HTTP client.
    ...(providerNetwork ? [{ start() {}, stop: () => providerNetwork.close() }] : []),
    scheduler,
    // Stopped after the relay (close runs this list backwards): closes the HTTP client's sockets.
    { start() {}, stop: () => webhookTransport.close() },
    webhookRelay,
    // Started last, stopped first: NOTIFY of committed jobs and deliveries wakes the two pollers above.
    dueWakeups(database, { scheduler, relay: webhookRelay, logger, events: eventStreams }),
    // Stopped first: the live event streams end (their clients reconnect with Last-Event-ID).
    { start() {}, stop: () => eventStreams.closeAll() },
    // Listens for credential/certificate changes and keeps this instance's lease (acknowledgements).
    accessLease,
    // Marks this build's function versions as in use, so no other build's start drops them.
    functionVersionsBeat(db, logger),
    // Stopped first: a test clock's advance in progress ends (its jobs and webhooks) before the
    // scheduler and the relay stop, and its clock is left ready.
    { start() {}, stop: () => testClocks.settled() },
  ];

  return {
    config,
    logger,
    clock,
    sandboxClock,
    /** Saves the sandbox clock's lead after an advance (absent for frozen test clocks). */
    sandboxClockStore,
    database,
    db,
    /** GET /ready's questions to the database (it answers; its schema is this code's). */
    databaseProbe: createDatabaseProbe(db),
    metrics,
    ledger,
    /** The ledger's invariants checked from scratch (GET /admin/ledger/check, tests, the benchmark). */
    checkLedger: () => reads.run('operators', checkLedger),
    /** The PIX network adapter the services talk to (the sandbox simulator in sandbox mode). */
    network,
    /** The simulator itself (sandbox mode only): what the sandbox routes drive. */
    sandboxNetwork,
    /** The provider adapter itself (PIX_NETWORK=provider): its notice inbox, statement check, health. */
    providerNetwork,
    /** Money on the pooled account waiting for an operator to assign it. */
    suspense,
    /** GET /admin/network/status. */
    networkStatus,
    /** Reads X-Sandbox-Scenario (validated in the sandbox, refused in production). */
    scenarios,
    outbox,
    scheduler,
    accounts,
    certificates,
    credentials,
    signingKeys,
    /** Client-secret hashing: keyed (HMAC) for generated secrets, scrypt for chosen ones. */
    secrets,
    tokens,
    tokenGrants,
    authFailures,
    /** The portal sign-in's failure limits (tests count the password checks they let run). */
    portalFailures,
    deposits,
    payouts,
    /** The settlement job of every outgoing debit: `registerHook(origin, { onFinished })`, `start`, `finishNow`. */
    settlement,
    /** The account's transactions: list and poll (any feature may read through it). */
    transactions,
    /** The one idempotency mechanism (key + body hash; replay, 422, 409). */
    idempotency,
    refunds,
    /** MED: its `sink(options)` takes the network's infraction notices (through services/network-sink.ts). */
    meds,
    rateLimiter,
    webhooks,
    webhookRelay,
    webhookResend,
    /** Test deliveries of an event type to the account's URLs (admin API, portal). */
    webhookTests,
    /** The account's webhook attempts, paged and filtered (admin API). */
    webhookDeliveryLog,
    audit,
    portalPeople,
    portalSessions,
    portalTwoFactor,
    /** The portal's read-only views no service exposes (the portal gets this, never `db`). */
    portalReads: reads.enabled ? createRoutedPortalReads(reads) : createPortalReads(db),
    /** Where reads go (the replica when fresh for the caller) and the write fences app.ts raises (read-routing.ts). */
    reads,
    charges,
    chargePayments,
    chargeLocations,
    /** Pays our own charges on-us (decisions 4.11); the payouts feature calls it. */
    onUsCharges: chargePayments as OnUsCharges,
    /** Verifies account access tokens (the authentication feature provides it). */
    accountTokens,
    /** The still-active memory's lease and the revocations' wait for every instance (access-lease.ts). */
    accessLease,
    /** Background loops (the job scheduler, the webhook relay, ...): started by main, stopped by close. */
    background,
    /** Graceful shutdown's stage (src/http/drain.ts): GET /ready and every answer read it; main.ts moves it. */
    drain,
    /** The account's events as its webhooks carried them (events API). */
    eventLog,
    /** Live event streams (Server-Sent Events); every one ends when the service closes. */
    eventStreams,
    /** Queues an account's finished deliveries again (replay). */
    webhookReplay,
    /** Per-account test clocks (sandbox): routes, and `enter(accountId)` for a served account's time. */
    testClocks,
    /** The time of the served account (its test clock, else the service clock). */
    accountClock,
    start() {
      for (const worker of background) worker.start();
    },
    /** Stops background work, then closes the database. */
    async close() {
      for (const worker of [...background].reverse()) await worker.stop();
      await database.close();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
