import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { AccountBulkhead } from '../../db/account-bulkhead.ts';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { PixNetwork } from '../../network/pix-network.ts';
import type { ScenarioReader } from '../../network/scenario-header.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import type { Idempotency } from '../idempotency/idempotency.service.ts';
import type { Settlement } from '../settlement/settlement.service.ts';
import { createTransactionsService } from '../transactions/transactions.service.ts';
import { createCashOutQrCodeService } from './cash-out-qrcode.service.ts';
import { createCashOutService } from './cash-out.service.ts';
import { createDictTransferService } from './dict-transfer.service.ts';
import { createPayoutRefundService } from './payout-refund.service.ts';
import { createSandboxDictKeys } from './sandbox-dict-keys.service.ts';
import type { Institution, OnUsCredit } from './on-us.ts';
import type { OnUsCharges } from './on-us-charges.port.ts';
import { createOutgoingPayouts } from './outgoing-payout.ts';
import { registerPayoutHooks } from './payout-events.ts';

/**
 * Wires the payouts feature's services over what the container built: the network adapter, the one
 * settlement path, the idempotency mechanism, the on-us credit and the charges feature's on-us port.
 * It builds no adapter itself.
 */
export function createPayoutsModule(deps: {
  config: Config;
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  outbox: Outbox;
  logger?: Logger;
  network: PixNetwork;
  /** Reads X-Sandbox-Scenario (the sandbox) or refuses it (production). */
  scenarios: ScenarioReader;
  settlement: Settlement;
  idempotency: Idempotency;
  institution: Institution;
  creditOnUs: OnUsCredit;
  onUsCharges: OnUsCharges;
  /** PGlite runs one statement at a time: one group-commit batch in flight; PostgreSQL: a few. */
  engine?: 'postgres' | 'pglite';
  /** Per-account bound on payouts holding a pooled connection (account-bulkhead.ts). */
  bulkhead?: AccountBulkhead;
  /** The sessions' lock timeout (DB_LOCK_TIMEOUT_MS of the database in use). */
  lockTimeoutMs?: number;
}) {
  const { config, db, clock, ledger, outbox, logger, network, settlement, idempotency, institution, creditOnUs } = deps;
  registerPayoutHooks({ settlement });
  const payouts = createOutgoingPayouts({
    db,
    clock,
    settlement,
    creditOnUs,
    onUsCharges: deps.onUsCharges,
    institutionIspb: config.institutionIspb,
    batchesInFlight: deps.engine === 'postgres' ? 3 : 1,
    // A batch waits for its accounts at most a quarter of the lock timeout (and 250 ms): a held
    // account costs the others that much, never the lock timeout.
    batchLockWaitMs: Math.min(250, Math.max(1, Math.floor((deps.lockTimeoutMs ?? config.database.timeouts.lockMs) / 4))),
    ...(deps.bulkhead ? { bulkhead: deps.bulkhead } : {}),
    logger,
  });
  const cashOut = createCashOutService({ db, network, payouts, institution });
  const cashOutQrCode = createCashOutQrCodeService({ db, network, payouts, institution, publicHost: config.publicHost });
  const dictTransfers = createDictTransferService({ db, clock, network, payouts, idempotency, institution });
  const refunds = createPayoutRefundService({ db, clock, ledger, outbox, institutionIspb: config.institutionIspb, networkAccount: network.ledgerAccount });
  const dictKeys = createSandboxDictKeys({ db, clock });
  const transactions = createTransactionsService({ db, clock });
  return {
    scenarios: deps.scenarios,
    institution,
    payouts,
    cashOut,
    cashOutQrCode,
    dictTransfers,
    refunds,
    dictKeys,
    transactions,
  };
}

export type PayoutsModule = ReturnType<typeof createPayoutsModule>;
