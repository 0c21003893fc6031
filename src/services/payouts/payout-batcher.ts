import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import type { PayoutRequest } from './payout-request.ts';
import { AccountBusyError, type PayoutAdmission } from './payout-admission.ts';
import { currentAccountClock, withAccountClock, type AccountClockScope } from '../test-clocks/account-time.ts';

/**
 * A payout whose admission is the whole command (a network payout whose counterpart is known and
 * after which nothing runs): a batch of only these is ONE statement outside any transaction.
 * Others (on-us payouts, which settle both sides at once; those with an `onCreated`, /dict/pix
 * storing its idempotent answer) need their work after the admission in its transaction.
 */
const admissionOnly = (req: PayoutRequest) => req.destination.kind === 'network' && typeof req.counterpart !== 'function' && req.onCreated === undefined;

/**
 * At most this many payouts with work after their admission in one batch: that work runs item by
 * item inside the batch's transaction, holding its accounts, so a batch of them stays short (another
 * account's payout in the same batch waits for it).
 */
const MAX_WITH_WORK_AFTER = 24;

/** What makes two requests one command: its externalId, else its idempotency key (never two in one batch). */
function sameCommandKey(req: PayoutRequest): string | undefined {
  if (req.externalId !== null) return `${req.accountId}\u0000e\u0000${req.externalId}`;
  return req.idempotencyKey === undefined ? undefined : `${req.accountId}\u0000i\u0000${req.idempotencyKey}`;
}

interface Item {
  req: PayoutRequest;
  /** The test clock of the request's account (issue 29 item 3): a batch never mixes two clocks' times. */
  clock: AccountClockScope | undefined;
  resolve: (tx: TransactionRow) => void;
  reject: (error: unknown) => void;
}

const RETRYABLE = new Set(['40P01', '40001']); // deadlock detected, serialization failure

/** How long a payout of an account found held elsewhere skips the batches and runs alone. */
const BUSY_ACCOUNT_ALONE_MS = 1_000;

/**
 * Group commit for every payout an account orders (network, on-us, /dict/pix). Requests that arrive
 * while the database is busy (or in the same event-loop turn) are admitted together by the one
 * admission (`payout-admission.ts`): ONE server-side call, one round trip and one durable commit
 * serve the whole batch (a batch with on-us payouts or `onCreated` work runs that work after the call,
 * in the same transaction). A deadlock or serialization failure reruns the batch; any other failure
 * runs each item alone (a batch of one), so one bad item can never fail the others. A burst of one
 * account queues here and is answered (issue 28 item 3): its payouts wait for the batch in flight
 * that holds its account, never for a slot of the account's bulkhead.
 *
 * One account never holds up the others' batches (issue 20, item 2): a batch waits at most
 * `lockWaitMs` for its counters and accounts, and the items of an account still held elsewhere (a
 * locked row, a command waiting on it) come back busy, without effect, and run alone (through the
 * account's bulkhead, where they wait within the lock timeout); that account's next payouts skip
 * the batches for BUSY_ACCOUNT_ALONE_MS. Two batches of this process in flight never share an
 * account (the second would only wait for the first).
 */
export function createPayoutBatcher(deps: {
  db: Kysely<DB>;
  admit: PayoutAdmission;
  /** The single-transaction path (a batch of one), for a batch that failed as a whole. */
  alone: (req: PayoutRequest) => Promise<TransactionRow>;
  /** Batches in flight at once: 1 on PGlite (one statement at a time), a few on PostgreSQL. */
  inFlight: number;
  /** The longest a batch waits for its counters and accounts before leaving the held ones out. */
  lockWaitMs: number;
  maxBatch?: number;
  logger?: Logger;
}) {
  const maxBatch = deps.maxBatch ?? 128;
  const queue: Item[] = [];
  let running = 0;
  let scheduled = false;
  const stats = { batches: 0, items: 0, retries: 0, fallbacks: 0, busy: 0 };
  /** Accounts in the batches in flight (how many batches each). */
  const accountsInFlight = new Map<number, number>();
  /** Accounts found held elsewhere, until when their payouts run alone (performance.now()). */
  const busyUntil = new Map<number, number>();

  function submit(req: PayoutRequest): Promise<TransactionRow> {
    const until = busyUntil.get(req.accountId);
    if (until !== undefined) {
      if (until > performance.now()) return deps.alone(req);
      busyUntil.delete(req.accountId);
    }
    return new Promise((resolve, reject) => {
      queue.push({ req, clock: currentAccountClock(), resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // Collect whatever else arrives in this turn of the event loop before taking a batch.
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      }
    });
  }

  function take(): Item[] {
    const batch: Item[] = [];
    const seen = new Set<string>();
    const rest: Item[] = [];
    let withWorkAfter = 0;
    // One time per batch: the admission's now, day and night windows (the service clock's, or one test clock's).
    const clockOf = (item: Item) => item.clock?.clockId ?? '';
    for (const item of queue) {
      const key = sameCommandKey(item.req);
      const workAfter = !admissionOnly(item.req);
      if (
        batch.length >= maxBatch ||
        (batch.length > 0 && clockOf(batch[0]!) !== clockOf(item)) ||
        (key !== undefined && seen.has(key)) ||
        accountsInFlight.has(item.req.accountId) ||
        (workAfter && withWorkAfter >= MAX_WITH_WORK_AFTER)
      ) {
        rest.push(item);
        continue;
      }
      if (key !== undefined) seen.add(key);
      if (workAfter) withWorkAfter += 1;
      batch.push(item);
    }
    queue.length = 0;
    queue.push(...rest);
    return batch;
  }

  function pump() {
    while (running < deps.inFlight && queue.length > 0) {
      const batch = take();
      // Everything queued belongs to accounts already in flight: the batch that ends pumps again.
      if (batch.length === 0) return;
      const accounts = [...new Set(batch.map((item) => item.req.accountId))];
      for (const a of accounts) accountsInFlight.set(a, (accountsInFlight.get(a) ?? 0) + 1);
      running += 1;
      stats.batches += 1;
      stats.items += batch.length;
      withAccountClock(batch[0]!.clock, () => run(batch)).finally(() => {
        for (const a of accounts) {
          const n = accountsInFlight.get(a)! - 1;
          if (n === 0) accountsInFlight.delete(a);
          else accountsInFlight.set(a, n);
        }
        running -= 1;
        pump();
      });
    }
  }

  async function run(batch: Item[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Admission only: one statement outside any transaction, committing on its own in one round
        // trip. With work after it: one transaction (a failure there undoes the batch, whose items
        // then run alone below).
        const requests = batch.map((item) => item.req);
        const outcomes = requests.every(admissionOnly)
          ? await deps.admit(deps.db, requests, { lockWaitMs: deps.lockWaitMs })
          : await transact(deps.db, (trx) => deps.admit(trx, requests, { lockWaitMs: deps.lockWaitMs }), { attempts: 1 });
        const alone: Item[] = [];
        batch.forEach((item, i) => {
          const o = outcomes[i]!;
          if (o instanceof AccountBusyError) alone.push(item);
          else if (o instanceof Error) item.reject(o);
          else item.resolve(o);
        });
        if (alone.length > 0) {
          stats.busy += alone.length;
          for (const item of alone) busyUntil.set(item.req.accountId, performance.now() + BUSY_ACCOUNT_ALONE_MS);
          // Not awaited: the batch slot is free for the others while these wait for their accounts.
          for (const item of alone) deps.alone(item.req).then(item.resolve, item.reject);
        }
        return;
      } catch (error) {
        const code = (error as { code?: string })?.code;
        if (code && RETRYABLE.has(code) && attempt < 5) {
          stats.retries += 1;
          continue;
        }
        // A payout alone in its batch that conflicted on every run: its reruns are spent (the command
        // answers 503 with Retry-After, as alone it would), not begun again alone.
        if (code && RETRYABLE.has(code) && batch.length === 1) {
          batch[0]!.reject(error);
          return;
        }
        stats.fallbacks += 1;
        deps.logger?.warn({ err: error, items: batch.length, attempt }, 'payout batch failed; running its payouts one by one');
        // Not the items' fault as far as we know: each runs alone, and answers for itself. Only an
        // item that is safe to run again: if the failure hid a commit, its externalId's unique index
        // or its idempotency key stops a second payout.
        await Promise.all(
          batch.map((item) => (sameCommandKey(item.req) === undefined ? item.reject(error) : deps.alone(item.req).then(item.resolve, item.reject))),
        );
        return;
      }
    }
  }

  return {
    submit,
    /** Batches run, items they carried, batches rerun (deadlock), run item by item (failure), items of held accounts run alone. */
    stats: () => ({ ...stats }),
  };
}

export type PayoutBatcher = ReturnType<typeof createPayoutBatcher>;
