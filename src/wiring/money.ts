import type { Config } from '../config.ts';
import { createAccountBulkhead } from '../db/account-bulkhead.ts';
import { bankByIspb } from '../domain/banks.ts';
import type { PixNetwork } from '../network/pix-network.ts';
import type { ScenarioReader } from '../network/scenario-header.ts';
import { createChargeLocations } from '../services/charges/charge-location.ts';
import { createChargePayments } from '../services/charges/charge-payment.ts';
import { createChargeService } from '../services/charges/charge.service.ts';
import { createChargeSplits } from '../services/charges/charge-splits.ts';
import { createIdempotency } from '../services/idempotency/idempotency.service.ts';
import { createMedService } from '../services/med/med.service.ts';
import { createCashOutQrCodeService } from '../services/payouts/cash-out-qrcode.service.ts';
import { createCashOutService } from '../services/payouts/cash-out.service.ts';
import { createDictTransferService } from '../services/payouts/dict-transfer.service.ts';
import type { OnUsCharges } from '../services/payouts/on-us-charges.port.ts';
import { createOnUsCredit } from '../services/payouts/on-us.ts';
import { createOutgoingPayouts } from '../services/payouts/outgoing-payout.ts';
import { createPayoutRefundService } from '../services/payouts/payout-refund.service.ts';
import { createSandboxDictKeys } from '../services/payouts/sandbox-dict-keys.service.ts';
import { createReceivedPix } from '../services/received-pix.ts';
import { createRefundService } from '../services/refunds/refund.service.ts';
import { createDepositService } from '../services/sandbox/deposit.service.ts';
import { createSettlement, type Settlement } from '../services/settlement/settlement.service.ts';
import { createSuspenseService } from '../services/suspense/suspense.service.ts';
import { createTransactionsService } from '../services/transactions/transactions.service.ts';
import type { SigningKeys } from '../services/auth/signing-keys.ts';
import type { Foundation } from './foundation.ts';

type MoneyBase = Pick<Foundation, 'db' | 'clock' | 'accountClock' | 'logger' | 'ledger' | 'outbox' | 'scheduler' | 'reads' | 'database'>;
type Institution = { ispb: string; name: string };

/**
 * Payouts: cash-out by key and QR code (paying our own charges on-us), /dict/pix, payout refunds.
 * Each service once, over what was built before.
 */
function wirePayouts(config: Config, f: MoneyBase, parts: { network: PixNetwork; scenarios: ScenarioReader; settlement: Settlement; institution: Institution; onUsCharges: OnUsCharges; creditOnUs: ReturnType<typeof createOnUsCredit>; idempotency: ReturnType<typeof createIdempotency> }) {
  // `accountClock`: an account on a sandbox test clock sees its clock's time (issue 29 item 3).
  const { db, clock, accountClock, logger, database } = f;
  const { network, institution } = parts;
  // One account's money commands hold at most a quarter of the pool at once (per process) and wait
  // for their turn and their locks within the lock timeout (issue 20, item 2; account-bulkhead.ts).
  const lockTimeoutMs = database.bounds?.lockTimeoutMs ?? config.database.timeouts.lockMs;
  const bulkhead = createAccountBulkhead({ perAccount: Math.max(1, Math.floor((database.bounds?.poolSize ?? config.database.poolSize) / 4)), lockTimeoutMs });
  const outgoingPayouts = createOutgoingPayouts({
    db, clock: accountClock, settlement: parts.settlement, creditOnUs: parts.creditOnUs, logger,
    onUsCharges: parts.onUsCharges,
    institutionIspb: config.institutionIspb,
    // PGlite runs one statement at a time: one group-commit batch in flight; PostgreSQL: a few.
    batchesInFlight: database.engine === 'postgres' ? 3 : 1,
    // A batch waits for its accounts at most a quarter of the lock timeout (and 250 ms): a held
    // account costs the others that much, never the lock timeout.
    batchLockWaitMs: Math.min(250, Math.max(1, Math.floor(lockTimeoutMs / 4))),
    bulkhead,
  });
  const payouts = {
    /** Reads X-Sandbox-Scenario (the sandbox) or refuses it (production). */
    scenarios: parts.scenarios,
    institution,
    /** The one admission of every payout (batched): cash-out by key and QR code, /dict/pix. */
    payouts: outgoingPayouts,
    cashOut: createCashOutService({ db, network, payouts: outgoingPayouts, institution }),
    cashOutQrCode: createCashOutQrCodeService({ db, network, payouts: outgoingPayouts, institution, publicHost: config.publicHost }),
    dictTransfers: createDictTransferService({ db, clock: accountClock, network, payouts: outgoingPayouts, idempotency: parts.idempotency, institution }),
    /** Payouts the receiving bank sent back. */
    refunds: createPayoutRefundService({ db, clock: accountClock, ledger: f.ledger, outbox: f.outbox, institutionIspb: config.institutionIspb, networkAccount: network.ledgerAccount }),
    /** The simulated key directory's entries (sandbox routes). */
    dictKeys: createSandboxDictKeys({ db, clock }),
  };
  return { payouts, bulkhead };
}

/**
 * The money features: deposits, charges and their payments and splits, the one settlement path of
 * every outgoing debit, payouts, refunds, MED, suspense and the transactions' reads.
 */
export function wireMoney(config: Config, f: MoneyBase, parts: { network: PixNetwork; scenarios: ScenarioReader; signingKeys: SigningKeys }) {
  // `accountClock`: an account on a sandbox test clock sees its clock's time (issue 29 item 3).
  const { db, clock, accountClock, ledger, outbox, scheduler, logger } = f;
  const { network, scenarios } = parts;
  /** A PIX received with no charge behind it (deposits, on-us credits, suspense assignments): built once. */
  const receivePix = createReceivedPix({ clock: accountClock, ledger, outbox });
  // The one settlement path of every outgoing debit (start/finishNow; each origin's rules in
  // services/settlement/origin-settlement.ts), the one
  // idempotency mechanism, and the receiving side of on-us payments: built once, here, and handed
  // to the features that use them, so no feature builds another's pieces and no wiring is late.
  const settlement = createSettlement({ db, clock: accountClock, ledger, scheduler, network, outbox, logger });
  const idempotency = createIdempotency({ db, clock });
  const institution = { ispb: config.institutionIspb, name: bankByIspb(config.institutionIspb)?.name ?? config.institutionName };
  const creditOnUs = createOnUsCredit({ clock: accountClock, receivePix, institution });
  // Charges: split payouts (settled by the settlement path, on-us through creditOnUs), then payments.
  // The split payouts go through the payouts' one debit admission (built below; called only when a split job runs).
  const chargeSplits = createChargeSplits({ db, clock: accountClock, config, scheduler, admitDebit: (trx, req) => payouts.payouts.admitIn(trx, req), logger });
  const chargePayments = createChargePayments({ db, clock: accountClock, config, ledger, outbox, scheduler, networkAccount: network.ledgerAccount, splits: chargeSplits });
  const { payouts, bulkhead } = wirePayouts(config, f, { network, scenarios, settlement, institution, onUsCharges: chargePayments satisfies OnUsCharges, creditOnUs, idempotency });
  // Refunds (refund-in, devolucao) settle through the same settlement job; MED feeds the same model.
  const refunds = createRefundService({ db, clock: accountClock, institutionIspb: config.institutionIspb, admitDebit: payouts.payouts.admitIn, bulkhead });
  return {
    deposits: createDepositService({ db, clock: accountClock, receivePix }),
    charges: createChargeService({ db, clock: accountClock, scheduler, network, scenarios }),
    chargePayments,
    chargeLocations: createChargeLocations({ db, clock: accountClock, signingKeys: parts.signingKeys }),
    /** Pays our own charges on-us (decisions 4.11); the payouts feature calls it. */
    onUsCharges: chargePayments as OnUsCharges,
    /** The settlement job of every outgoing debit: `start`, `finishNow` (each origin's rules: origin-settlement.ts). */
    settlement,
    /** The one idempotency mechanism (key + body hash; replay, 422, 409). */
    idempotency,
    payouts,
    /** The account's transactions: list and poll (any feature may read through it). */
    transactions: createTransactionsService({ db, clock: accountClock, reads: f.reads }),
    refunds,
    /** MED: its `sink(options)` takes the network's infraction notices (through services/network-sink.ts). */
    meds: createMedService({ db, clock: accountClock, ledger, outbox, institution: { ispb: config.institutionIspb, name: config.institutionName }, admitDebit: payouts.payouts.admitIn, admitBlock: payouts.payouts.blockIn }),
    /** Money on the pooled account waiting for an operator to assign it. */
    suspense: createSuspenseService({ db, clock, ledger, outbox, receivePix, network: network.ledgerAccount }),
  };
}

export type Money = ReturnType<typeof wireMoney>;
