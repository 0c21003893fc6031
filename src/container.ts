import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Clock } from './domain/clock.ts';
import type { Database } from './db/database.ts';
import { createDatabaseProbe } from './db/database-probe.ts';
import { checkLedger } from './ledger/ledger.ts';
import { observeRuntime } from './metrics.ts';
import { registerBacklogMetrics } from './observability/backlog.ts';
import type { PixNetwork } from './network/pix-network.ts';
import { createSandboxNetwork } from './network/sandbox/sandbox-network.ts';
import { productionScenarioReader, sandboxScenarioReader } from './network/scenario-header.ts';
import { createProviderNetwork, readProviderTls } from './network/provider/provider-network.ts';
import { createNetworkSink } from './services/network-sink.ts';
import { createNetworkStatus } from './services/network-status.ts';
import { registerPayoutBatchMetrics } from './services/payouts/batch-metrics.ts';
import { createRateLimiter } from './services/rate-limit/fixed-window.ts';
import type { HostResolver } from './webhooks/host-resolver.ts';
import { wireAuth } from './wiring/auth.ts';
import { backgroundWorkers } from './wiring/background.ts';
import { buildFoundation, type Foundation } from './wiring/foundation.ts';
import { wireMoney, type Money } from './wiring/money.ts';
import { wirePortal } from './wiring/portal.ts';
import { wireWebhooksAndEvents } from './wiring/webhooks-events.ts';

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
 * The PIX network (PIX_NETWORK): the sandbox simulator, whose routes drive it, or the upstream
 * provider of production (src/network/provider/: a pooled account at a provider). The only place
 * that constructs an adapter.
 */
function buildNetwork(config: Config, options: ContainerOptions, f: Foundation, providerTls: ReturnType<typeof readProviderTls> | undefined) {
  const { db, clock, accountClock, scheduler, logger, metrics } = f;
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
  return { adapter, network, sandboxNetwork, providerNetwork };
}

/**
 * What the network says on its own initiative (payment outcomes, money received, payout returns,
 * MED notices) reaches the same services as everything else: one sink, subscribed once, whichever
 * adapter runs.
 */
function subscribeNetworkSink(adapter: ReturnType<typeof buildNetwork>['adapter'], network: PixNetwork, f: Foundation, money: Money) {
  adapter.subscribe(
    createNetworkSink({
      db: f.db, logger: f.logger, suspense: money.suspense, settlement: money.settlement, deposits: money.deposits, meds: money.meds,
      networkAccount: network.ledgerAccount,
      charges: money.chargePayments,
      returnPayout: (accountId, payout, amount, endToEndId) => money.payouts.refunds.refund(accountId, payout, amount, endToEndId),
    }),
  );
}

/**
 * The one wiring file: builds the database, repositories, services and adapters, and nothing else
 * constructs concrete dependencies. Its named parts live in src/wiring/ (the foundation, auth, money,
 * webhooks and events, portal, background workers); the adapters are built here only.
 */
export async function createContainer(config: Config, options: ContainerOptions = {}) {
  // The provider's client certificate first: a file that cannot be read stops the start at once.
  const providerTls = config.provider ? readProviderTls(config.provider) : undefined;
  const f = await buildFoundation(config, options);
  // The read replica's pool is a background worker's, not a member of the container.
  const { readReplica, ...foundation } = f;
  const { adapter, network, sandboxNetwork, providerNetwork } = buildNetwork(config, options, f, providerTls);
  const scenarios = config.mode === 'sandbox' ? sandboxScenarioReader : productionScenarioReader;
  const { secretHashKeys, ...auth } = await wireAuth(config, f);
  const money = wireMoney(config, f, { network, scenarios, signingKeys: auth.signingKeys });
  const outgoingPayouts = money.payouts.payouts;
  registerPayoutBatchMetrics(f.metrics.registry, () => outgoingPayouts.batchStats());
  observeRuntime(f.metrics, { pool: f.database.poolStats, batcher: outgoingPayouts.batchStats });
  registerBacklogMetrics(f.metrics.registry, { db: f.db, clock: f.clock, logger: f.logger, jobKinds: () => f.scheduler.kinds(), circuitOpen: () => providerNetwork?.circuitOpen() ?? false });
  subscribeNetworkSink(adapter, network, f, money);
  // The webhook registration at the provider and the daily statement check, as jobs.
  await providerNetwork?.onStart();
  const { webhookTransport, ...webhooks } = wireWebhooksAndEvents(config, f, { accounts: auth.accounts, resolver: options.resolver, webhookRules: options.webhookRules });
  const background = backgroundWorkers({
    ...f, ...webhooks, accessLease: auth.accessLease, webhookTransport, readReplica,
    providerClient: providerNetwork ? { close: () => providerNetwork.close() } : undefined,
  });
  return {
    config,
    ...foundation,
    /** GET /ready's questions to the database (it answers; its schema is this code's). */
    databaseProbe: createDatabaseProbe(f.db),
    /** The ledger's invariants checked from scratch (GET /admin/ledger/check, tests, the benchmark). */
    checkLedger: () => f.reads.run('operators', checkLedger),
    /** The PIX network adapter the services talk to (the sandbox simulator in sandbox mode). */
    network,
    /** The simulator itself (sandbox mode only): what the sandbox routes drive. */
    sandboxNetwork,
    /** The provider adapter itself (PIX_NETWORK=provider): its notice inbox, statement check, health. */
    providerNetwork,
    /** GET /admin/network/status. */
    networkStatus: createNetworkStatus({ db: f.db, network, provider: providerNetwork, suspense: money.suspense }),
    /** Reads X-Sandbox-Scenario (validated in the sandbox, refused in production). */
    scenarios,
    ...auth,
    ...money,
    /** Fixed-window rate limits kept in the database (shared by every instance). */
    rateLimiter: createRateLimiter({ db: f.db, clock: f.clock }),
    ...webhooks,
    ...wirePortal(config, f, { accounts: auth.accounts, secretHashKeys }),
    /** Background loops (the job scheduler, the webhook relay, ...): started by main, stopped by close. */
    background,
    start() {
      for (const worker of background) worker.start();
    },
    /** Stops background work, then closes the database. */
    async close() {
      for (const worker of [...background].reverse()) await worker.stop();
      await f.database.close();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
