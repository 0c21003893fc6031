import type { Kysely, Transaction as Trx } from 'kysely';
import { currentTrace, newTraceId } from '../../observability/trace-context.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { endToEndId } from '../../domain/ids.ts';
import { MAX_AMOUNT, type Cents } from '../../domain/money.ts';
import { accountsRepo, type AccountRow } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { Settlement } from '../settlement/settlement.service.ts';
import { admitBlock, createPayoutAdmission, type BlockRequest } from './payout-admission.ts';
import { createPayoutBatcher } from './payout-batcher.ts';
import type { OnUsCredit } from './on-us.ts';
import type { OnUsCharges } from './on-us-charges.port.ts';
import type { PayoutRequest } from './payout-request.ts';
import { transact } from '../../db/transact.ts';
import type { AccountBulkhead } from '../../db/account-bulkhead.ts';

/** A batch's wait for its accounts when none is configured (PGlite: no other session holds them). */
const DEFAULT_BATCH_LOCK_WAIT_MS = 250;

const TAX_ID_MISMATCH = { errorCode: 'TAX_ID_MISMATCH', errorMessage: 'O documento informado não corresponde ao titular da chave.' };

export type { Destination, PayoutRequest } from './payout-request.ts';

/** The one debit admission inside the caller's transaction (`admitIn` below), for the other debit origins. */
export type AdmitDebit = (trx: Trx<DB>, req: PayoutRequest) => Promise<TransactionRow>;
/** A block through the same admission inside the caller's transaction (`blockIn` below): answers what it held. */
export type AdmitBlock = (trx: Trx<DB>, req: BlockRequest) => Promise<Cents>;
export type { BlockRequest } from './payout-admission.ts';

/**
 * The shared path of every payout the account orders (by key, by QR code, direct transfer): the one
 * admission (fee, limits, the PENDING row, duplicates, the hold, then the network's settlement job or
 * an on-us settlement, in one database transaction), batched by group commit where it can be.
 */
export function createOutgoingPayouts(deps: {
  db: Kysely<DB>;
  clock: Clock;
  settlement: Settlement;
  creditOnUs: OnUsCredit;
  onUsCharges: OnUsCharges;
  institutionIspb: string;
  /** Group-commit batches in flight at once (see payout-batcher.ts); 0 runs every payout alone. */
  batchesInFlight?: number;
  /** The longest a group-commit batch waits for its accounts before leaving the held ones out. */
  batchLockWaitMs?: number;
  /** At most a few payouts of one account hold a pooled connection at once (account-bulkhead.ts). */
  bulkhead?: AccountBulkhead;
  logger?: Logger;
}) {
  /**
   * THE on-us settlement of every origin (a payout, a split payout to a key of ours; a payment of our
   * charge; a MED return to its clearing account), in the payer's transaction, after the admission
   * held the money. The receiving side checks the holder's document whatever the origin.
   */
  async function settleOnUs(trx: Trx<DB>, payer: AccountRow, tx: TransactionRow, req: PayoutRequest): Promise<TransactionRow> {
    const dest = req.destination;
    if (dest.kind === 'clearing') {
      const finished = await deps.settlement.finishNow(trx, tx, { status: 'settled', endToEndId: tx.end_to_end_id ?? endToEndId('E', deps.institutionIspb, deps.clock.now()) }, dest.counter);
      return finished ?? tx;
    }
    const e2e = endToEndId('E', deps.institutionIspb, deps.clock.now());
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
      const paid = await deps.onUsCharges.payByLocation(trx, {
        url: dest.url,
        amount: dest.amount,
        payerAccountId: payer.id,
        payer: { name: payer.name, document: payer.document, ispb: deps.institutionIspb },
        endToEndId: e2e,
      });
      if (!paid.ok) {
        if (paid.reason === 'AMOUNT_MISMATCH') throw new DomainError('PIX_QR_CODE_AMOUNT_MISMATCH');
        throw new DomainError('PIX_INVALID_QR_CODE', { reason: paid.reason }, paid.reason === 'NOT_FOUND' ? 'The QR code is invalid: charge not found.' : 'The QR code is invalid: the charge can no longer be paid.');
      }
    }
    const finished = await deps.settlement.finishNow(trx, tx, { status: 'settled', endToEndId: e2e });
    return finished ?? tx;
  }

  const admit = createPayoutAdmission({ clock: deps.clock, settlement: deps.settlement, settleOnUs, lockCharge: (trx, url) => deps.onUsCharges.lockForPayment(trx, url) });

  /**
   * One debit inside the caller's transaction (a refund with its reservation, a split job, a MED
   * approval): the same admission as a payout alone; a refusal throws (the caller's transaction
   * rolls back), an origin that keeps uncovered debits (`failWith`) answers its ERROR row.
   */
  async function admitIn(trx: Trx<DB>, req: PayoutRequest): Promise<TransactionRow> {
    if (req.amount > MAX_AMOUNT) throw new DomainError('PIX_INVALID_AMOUNT');
    const [result] = await admit(trx, [traced(req)]);
    if (result instanceof Error) throw result;
    return result!;
  }

  /**
   * A block (a MED's opening block) inside the caller's transaction, through the same admission: the
   * account locked there, the amount clamped to what is available under that lock, the hold posted.
   */
  const blockIn: AdmitBlock = (trx, req) => admitBlock(trx, deps.clock.now(), req);

  /**
   * One payout in its own transaction: a batch of one through the same admission (a failed batch's
   * items, those of an account found held elsewhere, every payout when batches are off). A refusal
   * rolls everything back.
   */
  async function alone(req: PayoutRequest): Promise<TransactionRow> {
    const command = (lockTimeoutMs?: number) =>
      transact(
        deps.db,
        async (trx) => {
          const [result] = await admit(trx, [req]);
          if (result instanceof Error) throw result;
          return result!;
        },
        { lockTimeoutMs },
      );
    return deps.bulkhead ? deps.bulkhead.run(req.accountId, (turn) => command(turn.lockTimeoutMs)) : command();
  }

  /**
   * The debit with the trace of the request (or job) asking for it, kept in its metadata: the
   * admission stores it with the row and its submit step, and every later call, settlement and
   * webhook of this payment carries it (issue 31 item 4).
   */
  function traced(req: PayoutRequest): PayoutRequest {
    if (req.metadata?.trace !== undefined) return req;
    // Asked without a trace: the payment starts its own, so all it causes still shares one.
    const trace = currentTrace() ?? { traceId: newTraceId(), flags: '01' };
    return { ...req, metadata: { ...req.metadata, trace } };
  }

  const batcher =
    (deps.batchesInFlight ?? 1) > 0
      ? createPayoutBatcher({ db: deps.db, admit, alone, inFlight: deps.batchesInFlight ?? 1, lockWaitMs: deps.batchLockWaitMs ?? DEFAULT_BATCH_LOCK_WAIT_MS, logger: deps.logger })
      : undefined;

  async function create(asked: PayoutRequest): Promise<TransactionRow> {
    if (asked.amount > MAX_AMOUNT) throw new DomainError('PIX_INVALID_AMOUNT');
    // Taken now, in the asking request: the batch that admits it runs in another's context.
    const req = traced(asked);
    // Every payout the account orders is admitted in the group-commit batches (issue 28 item 3):
    // a burst of one account queues there and is answered, where one by one through the account's
    // bulkhead its queued commands ran out of their 3 s.
    if (batcher) return batcher.submit(req);
    return alone(req);
  }

  return { create, admitIn, blockIn, batchStats: () => batcher?.stats() };
}

export type OutgoingPayouts = ReturnType<typeof createOutgoingPayouts>;
