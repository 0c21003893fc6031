import type { Kysely, Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { ErrorCode } from '../../domain/errors/catalogue.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { endToEndId } from '../../domain/ids.ts';
import { feeFor, MAX_AMOUNT, type Cents, toBrlNumber } from '../../domain/money.ts';
import { accountsRepo, type AccountRow } from '../../db/repos/accounts.repo.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { PaymentTarget, Settlement } from '../settlement/settlement.service.ts';
import { admitPayout, LIMITED_ORIGINS } from './limits.ts';
import { createPayoutBatcher, payoutRow, type BatchablePayout } from './payout-batcher.ts';
import type { OnUsCredit } from './on-us.ts';
import type { OnUsCharges } from './on-us-charges.port.ts';
import { transact } from '../../db/transact.ts';

const TAX_ID_MISMATCH = { errorCode: 'TAX_ID_MISMATCH', errorMessage: 'O documento informado não corresponde ao titular da chave.' };

/** Where a payout goes once admitted and held. */
export type Destination =
  /** Another institution, through the network and the settlement job. */
  | { kind: 'network'; target: PaymentTarget }
  /** A key of one of our accounts: both sides settle now (decisions 4.11). */
  | { kind: 'on_us_key'; receiverAccountId: number; receiverKey: string; creditorDocument: string | null }
  /** A charge of ours, by its BR Code location. */
  | { kind: 'on_us_charge'; url: string; amount: Cents | undefined };

export interface PayoutRequest {
  accountId: number;
  origin: 'cash_out' | 'cash_out_qrcode' | 'dict';
  family: 'api' | 'bacen';
  externalId: string | null;
  amount: Cents;
  description: string | null;
  pixKey: string | null;
  /** Who receives; for an on-us key the receiver account is filled in here. */
  counterpart: Counterpart | ((receiver: AccountRow) => Counterpart);
  scenario: string | null;
  metadata?: Record<string, unknown>;
  destination: Destination;
  /** Runs last in the payout's transaction (e.g. storing the idempotent answer). */
  onCreated?: (trx: Trx<DB>, tx: TransactionRow) => Promise<void>;
  /** The codes this route answers (they differ between the families). */
  codes: {
    duplicate: ErrorCode;
    insufficient: ErrorCode;
  };
}

/**
 * The shared path of every payout the account orders (by key, by QR code, direct transfer): fee,
 * limits, the PENDING row (the unique externalId index decides duplicates), the hold, and then the
 * network's settlement job or an on-us settlement, all in one database transaction.
 */
export function createOutgoingPayouts(deps: {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  settlement: Settlement;
  creditOnUs: OnUsCredit;
  onUsCharges: () => OnUsCharges | undefined;
  institutionIspb: string;
  /** Group-commit batches in flight at once (see payout-batcher.ts); 0 runs every payout alone. */
  batchesInFlight?: number;
  logger?: Logger;
}) {
  async function settleOnUs(trx: Trx<DB>, payer: AccountRow, tx: TransactionRow, req: PayoutRequest): Promise<TransactionRow> {
    const e2e = endToEndId('E', deps.institutionIspb, deps.clock.now());
    const dest = req.destination;
    if (dest.kind === 'on_us_key') {
      const receiver = await accountsRepo.byId(trx, dest.receiverAccountId);
      if (dest.creditorDocument !== null && receiver && receiver.document !== dest.creditorDocument) {
        // The receiving bank is us, and it checks the holder's document as any other would.
        const rejected = await deps.settlement.finishNow(trx, tx, { status: 'rejected', ...TAX_ID_MISMATCH });
        return rejected ?? tx;
      }
      await deps.creditOnUs(trx, {
        receiverAccountId: dest.receiverAccountId,
        amount: req.amount,
        payer: { name: payer.name, document: payer.document },
        endToEndId: e2e,
        pixKey: dest.receiverKey,
        description: req.description,
      });
    } else if (dest.kind === 'on_us_charge') {
      const charges = deps.onUsCharges();
      const paid = charges
        ? await charges.payByLocation(trx, {
            url: dest.url,
            amount: dest.amount,
            payerAccountId: payer.id,
            payer: { name: payer.name, document: payer.document, ispb: deps.institutionIspb },
            endToEndId: e2e,
          })
        : ({ ok: false, reason: 'NOT_FOUND' } as const);
      if (!paid.ok) {
        if (paid.reason === 'AMOUNT_MISMATCH') throw new DomainError('PIX_QR_CODE_AMOUNT_MISMATCH');
        throw new DomainError('PIX_INVALID_QR_CODE', { reason: paid.reason }, paid.reason === 'NOT_FOUND' ? 'The QR code is invalid: charge not found.' : 'The QR code is invalid: the charge can no longer be paid.');
      }
    }
    const finished = await deps.settlement.finishNow(trx, tx, { status: 'settled', endToEndId: e2e });
    return finished ?? tx;
  }

  /** One payout in its own transaction: on-us payouts, those with an `onCreated`, a failed batch's items. */
  async function alone(req: PayoutRequest): Promise<TransactionRow> {
    return transact(deps.db, async (trx) => {
      const account = await accountsRepo.byId(trx, req.accountId);
      if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${req.accountId} not found`);
      const fee = feeFor(req.amount, { fixed: account.fee_cash_out_fixed as Cents, percentBp: account.fee_cash_out_percent_bp });
      const finalAmount = (req.amount + fee) as Cents;
      if (finalAmount > MAX_AMOUNT) throw new DomainError('PIX_INVALID_AMOUNT', undefined, 'The amount plus the fee is above 999,999,999.99');
      if (LIMITED_ORIGINS.has(req.origin) && req.amount > account.limit_per_transaction) {
        throw new DomainError('PIX_TRANSACTION_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_per_transaction as Cents) });
      }
      let counterpart: Counterpart;
      if (typeof req.counterpart === 'function') {
        const dest = req.destination;
        const receiver = dest.kind === 'on_us_key' ? await accountsRepo.byId(trx, dest.receiverAccountId) : undefined;
        if (!receiver) throw new DomainError('PIX_INVALID_PIX_KEY');
        counterpart = req.counterpart(receiver);
      } else counterpart = req.counterpart;

      const now = deps.clock.now();
      const row = payoutRow(req, account, fee, counterpart, now);
      let tx: TransactionRow;
      if (req.externalId !== null) {
        const inserted = await transactionsRepo.insertUnlessExternalIdUsed(trx, row);
        if (!inserted.created) {
          throw new DomainError(req.codes.duplicate, { externalId: req.externalId, existingTransactionId: inserted.row.transaction_id });
        }
        tx = inserted.row;
      } else {
        tx = await transactionsRepo.insert(trx, row);
      }
      // The rows every payout of the account contends for (the limit counters, then the account
      // balance) are locked last, so they are held for as few round trips as possible.
      if (req.destination.kind === 'network') await deps.settlement.start(trx, tx, req.destination.target);
      if (LIMITED_ORIGINS.has(req.origin)) await admitPayout(trx, account, req.amount, now);
      // An on-us payout moves two balances: both rows in id order, so A->B and B->A never deadlock.
      if (req.destination.kind === 'on_us_key') await accountsRepo.lockInOrder(trx, [account.id, req.destination.receiverAccountId]);
      const held = await deps.ledger.holdOne(trx, { accountId: account.id, amount: finalAmount, transactionId: tx.id, reason: 'hold' });
      if (!held.ok) throw new DomainError(req.codes.insufficient);

      const result = req.destination.kind === 'network' ? tx : await settleOnUs(trx, account, tx, req);
      await req.onCreated?.(trx, result);
      return result;
    });
  }

  const batcher =
    (deps.batchesInFlight ?? 1) > 0
      ? createPayoutBatcher({ db: deps.db, clock: deps.clock, ledger: deps.ledger, settlement: deps.settlement, alone, inFlight: deps.batchesInFlight ?? 1, logger: deps.logger })
      : undefined;

  const batchable = (req: PayoutRequest): req is BatchablePayout =>
    req.destination.kind === 'network' && typeof req.counterpart !== 'function' && req.onCreated === undefined;

  async function create(req: PayoutRequest): Promise<TransactionRow> {
    if (req.amount > MAX_AMOUNT) throw new DomainError('PIX_INVALID_AMOUNT');
    if (batcher && batchable(req)) return batcher.submit(req);
    return alone(req);
  }

  return { create, batchStats: () => batcher?.stats() };
}

export type OutgoingPayouts = ReturnType<typeof createOutgoingPayouts>;
