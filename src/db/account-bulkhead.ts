import { DatabaseUnavailableError } from './db-faults.ts';

/** What a command is told when it starts: the lock wait it has left (undefined: the session's whole bound). */
export interface AccountTurn {
  lockTimeoutMs: number | undefined;
}

/** Turns shorter than this are not worth a statement that shortens the lock timeout. */
const WAIT_WORTH_NOTICING_MS = 20;

/**
 * The per-account bulkhead of money commands (issue 20, item 2). A command that runs in its own
 * transaction (a payout on the single path, a refund) holds a pooled connection for as long as it
 * waits on its account's row: when something holds that row (an operator's session, a stuck
 * transaction), every such command of the account would hold a connection for the whole lock
 * timeout and the pool would run dry for everyone. Here at most `perAccount` commands of one
 * account run at once in this process; the others wait their turn in order. Waiting for a turn is
 * waiting for the account, so it comes out of the same budget as a lock wait: a command waits for
 * its turn and its locks together at most `lockTimeoutMs` (DB_LOCK_TIMEOUT_MS), then answers 503
 * with Retry-After. When a running command of the account meets the lock timeout, the commands
 * queued behind it answer 503 at once (they would meet the same lock).
 *
 * The bound is per process: with WORKERS=n, one account may hold n x perAccount connections of
 * the database in all, perAccount of each process's pool.
 */
export function createAccountBulkhead(options: { perAccount: number; lockTimeoutMs: number; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  interface Waiter {
    since: number;
    start: (turn: AccountTurn) => void;
    refuse: (error: Error) => void;
    timer: NodeJS.Timeout;
  }
  const accounts = new Map<number, { running: number; queue: Waiter[] }>();
  const stats = { queued: 0, refused: 0 };

  const busy = (accountId: number, why: string) =>
    new DatabaseUnavailableError(`account ${accountId}: ${why}; retry after the Retry-After header`);

  function stateOf(accountId: number) {
    let state = accounts.get(accountId);
    if (!state) {
      state = { running: 0, queue: [] };
      accounts.set(accountId, state);
    }
    return state;
  }

  function next(accountId: number) {
    const state = accounts.get(accountId);
    if (!state) return;
    while (state.running < options.perAccount && state.queue.length > 0) {
      const waiter = state.queue.shift()!;
      clearTimeout(waiter.timer);
      const left = Math.floor(options.lockTimeoutMs - (now() - waiter.since));
      if (left < 1) {
        stats.refused += 1;
        waiter.refuse(busy(accountId, `waited ${options.lockTimeoutMs} ms for its earlier commands`));
        continue;
      }
      state.running += 1;
      waiter.start({ lockTimeoutMs: now() - waiter.since >= WAIT_WORTH_NOTICING_MS ? left : undefined });
    }
    if (state.running === 0 && state.queue.length === 0) accounts.delete(accountId);
  }

  /** Every command queued for the account answers 503 now (a running one met the lock timeout). */
  function drain(accountId: number, cause: unknown) {
    const state = accounts.get(accountId);
    if (!state) return;
    for (const waiter of state.queue.splice(0)) {
      clearTimeout(waiter.timer);
      stats.refused += 1;
      waiter.refuse(new DatabaseUnavailableError(`account ${accountId}: its row is locked (an earlier command met the lock timeout); retry after the Retry-After header`, { cause }));
    }
  }

  /** Runs `command` in the account's turn (see above); its failure is the caller's. */
  async function run<T>(accountId: number, command: (turn: AccountTurn) => Promise<T>): Promise<T> {
    const state = stateOf(accountId);
    let turn: AccountTurn = { lockTimeoutMs: undefined };
    if (state.running < options.perAccount && state.queue.length === 0) state.running += 1;
    else {
      stats.queued += 1;
      turn = await new Promise<AccountTurn>((start, refuse) => {
        const waiter: Waiter = {
          since: now(),
          start,
          refuse,
          timer: setTimeout(() => {
            const at = state.queue.indexOf(waiter);
            if (at >= 0) state.queue.splice(at, 1);
            stats.refused += 1;
            refuse(busy(accountId, `waited ${options.lockTimeoutMs} ms for its earlier commands`));
            next(accountId);
          }, options.lockTimeoutMs),
        };
        state.queue.push(waiter);
      });
    }
    try {
      return await command(turn);
    } catch (error) {
      if ((error as { code?: unknown })?.code === '55P03') drain(accountId, error);
      throw error;
    } finally {
      state.running -= 1;
      next(accountId);
    }
  }

  return {
    run,
    /** Commands that had to wait for their turn, and commands answered 503 by the bulkhead, since start. */
    stats: () => ({ ...stats, accountsActive: accounts.size }),
  };
}

export type AccountBulkhead = ReturnType<typeof createAccountBulkhead>;
