import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { prepared } from '../../db/prepared.ts';
import { fn } from '../../db/function-sources.ts';
import { DatabaseUnavailableError } from '../../db/db-faults.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import { cents, MAX_AMOUNT, MAX_AMOUNT_GROUPED, toBrlNumber, type Cents } from '../../domain/money.ts';
import type { BlockOrigin } from '../../domain/closed-lists.ts';
import { accountsRepo, type AccountRow } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { Settlement } from '../settlement/settlement.service.ts';
import { paymentOrderOf } from '../settlement/settlement.service.ts';
import { SUBMIT_STEP_JOB } from '../settlement/payment-steps.ts';
import { limitWindows } from './limits.ts';
import { DEBIT_ORIGIN_RULES } from './debit-origins.ts';
import {
  admissionBlockItem,
  admissionItem,
  parseAdmissionAnswer,
  unreachable,
  type AdmissionAnswer,
  type AdmissionAnswerRow,
  type AdmissionBlockItem,
  type AdmissionItem,
} from './admission-wire.ts';
import type { PayoutRequest } from './payout-request.ts';
import { currentAccountClock } from '../test-clocks/account-time.ts';

type Db = Kysely<DB> | Trx<DB>;

/**
 * A batched payout whose account (or its limit counters) another transaction holds: nothing of it
 * was written, and it runs again alone, where it waits for the lock within its own bound. A 503
 * (Retry-After) should it ever reach a client.
 */
export class AccountBusyError extends DatabaseUnavailableError {
  constructor(readonly accountId: number) {
    super(`account ${accountId} is held by another transaction`);
  }
}

/**
 * THE admission of every debit (payouts, refunds and devoluções, split payouts, MED returns; each
 * origin's rules are data, debit-origins.ts): the limit, balance and duplicate rules, the fee
 * (`pix_fee`) and the hold are applied by ONE server-side function (`admit_payouts`,
 * src/db/functions/admit_payouts.sql), for a group-commit batch of many or a batch of one.
 * A batch outside a transaction is one statement: one round trip and one commit for the rows, the
 * limit counters, the holds with their postings and the submit steps. Inside a transaction (the
 * single path: on-us payouts, `/dict/pix` storing its idempotent answer) the caller's work goes on
 * after it: on-us items settle both sides, and each item's `onCreated` runs.
 */
export function createPayoutAdmission(deps: {
  clock: Clock;
  settlement: Pick<Settlement, 'submitStep' | 'announceUnheld'>;
  /** Settles an admitted, held on-us payout at once (both sides) in the caller's transaction. */
  settleOnUs: (trx: Trx<DB>, payer: AccountRow, tx: TransactionRow, req: PayoutRequest) => Promise<TransactionRow>;
  /** Locks one of our charges by its location and names its account (an on-us payment of a charge). */
  lockCharge: (trx: Trx<DB>, url: string) => Promise<{ accountId: number } | undefined>;
}) {
  /** What the function needs of one request: the row's own columns, and the next step of a network payout. */
  async function itemOf(db: Db, req: PayoutRequest, index: number, now: Date): Promise<AdmissionItem | DomainError> {
    const dest = req.destination;
    let counterpart: Counterpart;
    if (typeof req.counterpart === 'function') {
      // An on-us payout names its receiver once the receiving account is known.
      const receiver = dest.kind === 'on_us_key' ? await accountsRepo.byId(db, dest.receiverAccountId) : undefined;
      if (!receiver) return new DomainError('PIX_INVALID_PIX_KEY');
      counterpart = req.counterpart(receiver);
    } else counterpart = req.counterpart;
    // The receiving account is locked with the payer, in id order, by the admission itself; the
    // charge an on-us payment pays is locked before that (charge rows come before accounts).
    const receiverId =
      dest.kind === 'on_us_key' ? dest.receiverAccountId : dest.kind === 'on_us_charge' ? ((await deps.lockCharge(db as Trx<DB>, dest.url))?.accountId ?? null) : null;
    const rules = DEBIT_ORIGIN_RULES[req.origin];
    const transactionId = req.transactionId ?? newUuidV4();
    const job =
      dest.kind === 'network'
        ? deps.settlement.submitStep(
            paymentOrderOf({ transaction_id: transactionId, kind: rules.kind, original_amount: req.amount, description: req.description, created_at: now, scenario: req.scenario, metadata: req.metadata }, dest.target),
          )
        : undefined;
    // The origin's rules go with the item, as data (debit-origins.ts; admit_payouts reads them per item).
    return admissionItem(req.origin, {
      idx: index,
      accountId: req.accountId,
      receiverId,
      amount: req.amount,
      tx: {
        transaction_id: transactionId,
        family: req.family,
        external_id: req.externalId,
        end_to_end_id: req.endToEndId ?? null,
        parent_id: req.parentId ?? null,
        pix_key: req.pixKey,
        description: req.description,
        counterpart,
        metadata: req.metadata ?? {},
        scenario: req.scenario,
      },
      job: job ? { ...job.payload } : null,
    });
  }

  /**
   * The submit jobs admit_payouts wrote for payouts of an account on a test clock fall due on that
   * clock (issue 29 item 3): admit_payouts writes them on the service clock, this names their clock.
   */
  async function onTestClock(db: Db, answers: AdmissionAnswer[]): Promise<void> {
    const clock = currentAccountClock();
    if (!clock) return;
    const ids = answers.flatMap((a) => (a.outcome === 'admitted' ? [Number(a.tx.id)] : []));
    if (ids.length === 0) return;
    await sql`UPDATE jobs SET clock_id = ${clock.clockId}::uuid
               WHERE kind = ${SUBMIT_STEP_JOB.kind} AND clock_id IS NULL AND status = 'pending'
                 AND (payload ->> 'id')::bigint = ANY (${ids}::bigint[])`.execute(db);
  }

  /** A refusal in the words of the route that asked. */
  function refusal(req: PayoutRequest, row: Exclude<AdmissionAnswer, { tx: TransactionRow }>): DomainError | AccountBusyError {
    switch (row.outcome) {
      case 'NOT_FOUND':
        return new DomainError('NOT_FOUND', undefined, `Account ${req.accountId} not found`);
      case 'ACCOUNT_SUSPENDED':
        return new DomainError('ACCOUNT_SUSPENDED', { accountId: req.accountId });
      case 'PIX_INVALID_AMOUNT':
        return new DomainError('PIX_INVALID_AMOUNT', undefined, `The amount plus the fee is above ${MAX_AMOUNT_GROUPED}`);
      case 'PIX_TRANSACTION_LIMIT_EXCEEDED':
      case 'PIX_DAILY_LIMIT_EXCEEDED':
      case 'PIX_NIGHT_LIMIT_EXCEEDED':
        return new DomainError(row.outcome, row.limit === undefined ? undefined : { limit: toBrlNumber(row.limit) });
      case 'DUPLICATE':
        return new DomainError(req.codes.duplicate, { externalId: req.externalId, existingTransactionId: row.existingTransactionId });
      case 'INSUFFICIENT':
        return new DomainError(req.codes.insufficient);
      case 'BUSY':
        return new AccountBusyError(req.accountId);
      case 'blocked':
        // A block item's answer, for a debit item: the function and this file disagree.
        throw new Error(`admit_payouts answered blocked for the debit item of account ${req.accountId}`);
      default:
        return unreachable(row);
    }
  }

  /**
   * Answers one row or one error per request, in order. `lockWaitMs` (a group-commit batch outside
   * any transaction): wait at most that long for the batch's counters and accounts, and answer an
   * AccountBusyError for the items of accounts still held elsewhere (src/db/functions/admit_payouts.sql).
   */
  async function admit(db: Db, requests: PayoutRequest[], options: { lockWaitMs?: number } = {}): Promise<Array<TransactionRow | Error>> {
    const now = deps.clock.now();
    const out: Array<TransactionRow | Error | undefined> = new Array(requests.length);
    const items: AdmissionItem[] = [];
    const positions: number[] = [];
    // The charges on-us payments of a batch pay, locked in one order first (charge rows come before
    // accounts): two batches never take two charges in opposite orders.
    const chargeUrls = [...new Set(requests.flatMap((r) => (r.destination.kind === 'on_us_charge' ? [r.destination.url] : [])))].sort();
    if (chargeUrls.length > 1) for (const url of chargeUrls) await deps.lockCharge(db as Trx<DB>, url);
    for (const [index, req] of requests.entries()) {
      const item = await itemOf(db, req, index, now);
      if (item instanceof DomainError) out[index] = item;
      else {
        items.push(item);
        positions.push(index);
      }
    }
    if (items.length === 0) return out as Array<TransactionRow | Error>;
    const rows = await callAdmission(db, items, now, options.lockWaitMs);
    const admitted: Array<{ index: number; tx: TransactionRow }> = [];
    const failed: TransactionRow[] = [];
    await onTestClock(db, rows.rows.map(parseAdmissionAnswer));
    rows.rows.forEach((row, k) => {
      const index = positions[k]!;
      const answer = parseAdmissionAnswer(row);
      if (answer.outcome === 'admitted') {
        out[index] = answer.tx;
        admitted.push({ index, tx: answer.tx });
      } else if (answer.outcome === 'failed') {
        out[index] = answer.tx;
        failed.push(answer.tx);
      } else out[index] = refusal(requests[index]!, answer);
    });
    // Kept as ERROR by its origin's rule (`failWith`): announced like a rejected debit.
    for (const tx of failed) await deps.settlement.announceUnheld(db as Trx<DB>, tx);
    // The single path's work, in its transaction: on-us payouts settle both sides, then `onCreated`.
    for (const { index, tx } of admitted) {
      const req = requests[index]!;
      if (req.destination.kind === 'network' && !req.onCreated) continue;
      const trx = db as Trx<DB>;
      const result = req.destination.kind === 'network' ? tx : await deps.settleOnUs(trx, (await accountsRepo.byId(trx, tx.account_id))!, tx, req);
      await req.onCreated?.(trx, result);
      out[index] = result;
    }
    return out as Array<TransactionRow | Error>;
  }

  return admit;
}

export type PayoutAdmission = ReturnType<typeof createPayoutAdmission>;

/** THE call of `admit_payouts`: debit items and block items, one answer row per item, in order (exported for its tests). */
export async function callAdmission(db: Db, items: ReadonlyArray<AdmissionItem | AdmissionBlockItem>, now: Date, lockWaitMs: number | undefined) {
  const windows = limitWindows(now);
  const { kind, maxAttempts } = SUBMIT_STEP_JOB;
  return sql<AdmissionAnswerRow>`
      ${prepared('admit_payouts_965')}SELECT idx, outcome, detail, tx
        FROM ${fn('admit_payouts')}(${JSON.stringify(items)}::jsonb, ${windows.day}, ${windows.night ?? null}, ${now}::timestamptz, ${MAX_AMOUNT}::bigint, ${kind}, ${maxAttempts}::int, ${lockWaitMs ?? null}::int)`.execute(db);
}

/** A block asked of the admission (BLOCK_ORIGINS): hold up to `amount` of the account's money on an existing row. */
export interface BlockRequest {
  origin: BlockOrigin;
  accountId: number;
  /** The most to hold; the admission holds min(amount, available) under the account's lock. */
  amount: Cents;
  /** The row (`transactions.id`) the hold is posted against (a MED's: the disputed PIX). */
  transactionId: number;
}

/**
 * A block through the one admission (a MED's opening block), inside the caller's transaction: the
 * account is locked by admit_payouts in the one lock order, the amount clamped to what is available
 * under that lock, and the hold posted (available -> blocked, the origin's reason) against the row.
 * No transactions row, no fee, no limits, no step. Answers what was held (0: nothing posted); an
 * account that does not exist (or is suspended, for an origin that stops then) is an error.
 */
export async function admitBlock(trx: Trx<DB>, now: Date, req: BlockRequest): Promise<Cents> {
  if (!Number.isSafeInteger(req.amount) || req.amount < 0 || req.amount > MAX_AMOUNT) throw new RangeError(`a block's amount must be cents between 0 and the maximum, got ${req.amount}`);
  if (req.amount === 0) return cents(0);
  const item = admissionBlockItem(req.origin, { idx: 0, accountId: req.accountId, amount: req.amount, transactionId: req.transactionId });
  const { rows } = await callAdmission(trx, [item], now, undefined);
  const answer = parseAdmissionAnswer(rows[0]!);
  switch (answer.outcome) {
    case 'blocked':
      return answer.amount;
    case 'NOT_FOUND':
      throw new DomainError('NOT_FOUND', undefined, `Account ${req.accountId} not found`);
    case 'ACCOUNT_SUSPENDED':
      throw new DomainError('ACCOUNT_SUSPENDED', { accountId: req.accountId });
    default:
      // A block has no row, no limit and no fee, and waits for its lock (no BUSY): anything else is a fault.
      throw new Error(`admit_payouts answered ${answer.outcome} for a block of account ${req.accountId}`);
  }
}
