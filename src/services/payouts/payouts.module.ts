import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { PixNetwork } from '../../network/pix-network.ts';
import { createSandboxNetwork } from '../../network/sandbox/sandbox-network.ts';
import { bankByIspb } from '../../network/sandbox/banks.ts';
import { productionScenarioReader, sandboxScenarioReader } from '../../network/scenario-header.ts';
import { unconfiguredNetwork } from '../../network/unconfigured-network.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import { createSettlement } from '../settlement/settlement.service.ts';
import { createIdempotency } from '../idempotency/idempotency.service.ts';
import { createTransactionsService } from '../transactions/transactions.service.ts';
import { createCashOutQrCodeService } from './cash-out-qrcode.service.ts';
import { createCashOutService } from './cash-out.service.ts';
import { createDictTransferService } from './dict-transfer.service.ts';
import { createPayoutRefundService } from './payout-refund.service.ts';
import { createSandboxDictKeys } from './sandbox-dict-keys.service.ts';
import { createOnUsCredit } from './on-us.ts';
import type { OnUsCharges } from './on-us-charges.port.ts';
import { createOutgoingPayouts } from './outgoing-payout.ts';
import { registerPayoutHooks } from './payout-events.ts';

/**
 * Wires the payouts feature: the network adapter (the sandbox simulator in sandbox mode; production
 * has no real provider in this codebase, so off-us payments answer PROVIDER_UNAVAILABLE there), the settlement job, and the payout services.
 */
export function createPayoutsModule(deps: {
  config: Config;
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  outbox: Outbox;
  scheduler: Scheduler;
  logger: Logger;
  onUsCharges: () => OnUsCharges | undefined;
  /** PGlite runs one statement at a time: one group-commit batch in flight; PostgreSQL: a few. */
  engine?: 'postgres' | 'pglite';
}) {
  const { config, db, clock, ledger, outbox, scheduler, logger } = deps;
  const network: PixNetwork =
    config.mode === 'sandbox'
      ? createSandboxNetwork({ db, clock, settlementDelayMs: config.sandboxSettlementDelayMs, institutionIspb: config.institutionIspb })
      : unconfiguredNetwork;
  const scenarios = config.mode === 'sandbox' ? sandboxScenarioReader : productionScenarioReader;
  const institution = { ispb: config.institutionIspb, name: bankByIspb(config.institutionIspb)?.name ?? config.institutionName };
  const settlement = createSettlement({ db, clock, ledger, scheduler, network, logger });
  registerPayoutHooks({ settlement, outbox });
  const creditOnUs = createOnUsCredit({ clock, ledger, outbox, institution });
  const payouts = createOutgoingPayouts({
    db,
    clock,
    ledger,
    settlement,
    creditOnUs,
    onUsCharges: deps.onUsCharges,
    institutionIspb: config.institutionIspb,
    batchesInFlight: deps.engine === 'postgres' ? 3 : 1,
    logger,
  });
  const cashOut = createCashOutService({ db, network, payouts, institution });
  const cashOutQrCode = createCashOutQrCodeService({ db, network, payouts, institution, publicHost: config.publicHost });
  const idempotency = createIdempotency({ db, clock });
  const dictTransfers = createDictTransferService({ db, clock, network, payouts, idempotency, institution });
  const refunds = createPayoutRefundService({ db, clock, ledger, outbox, institutionIspb: config.institutionIspb });
  const dictKeys = createSandboxDictKeys({ db, clock });
  const transactions = createTransactionsService({ db, clock });
  return {
    network,
    scenarios,
    institution,
    settlement,
    creditOnUs,
    payouts,
    cashOut,
    cashOutQrCode,
    idempotency,
    dictTransfers,
    refunds,
    dictKeys,
    transactions,
  };
}

export type PayoutsModule = ReturnType<typeof createPayoutsModule>;
