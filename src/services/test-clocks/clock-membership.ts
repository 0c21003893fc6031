import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { testClocksRepo } from '../../db/repos/test-clocks.repo.ts';
import type { AccountClockScope } from './account-time.ts';

/**
 * Which accounts are on a test clock, and each clock's time, kept in memory (sandbox only): every
 * account request asks, and asking the database each time cost a statement per request (about a
 * fifth of a cash-out's throughput). The whole set is read again when it may have changed: at once
 * after this process changed a clock (`invalidate`), when another process's change is announced
 * (NOTIFY on `test_clocks`, migration 1510), and at least every REFRESH_MS whatever happens (a lost
 * notification costs at most that). Concurrent requests share one read.
 */
export const REFRESH_MS = 1_000;

export function createClockMembership(deps: { db: Kysely<DB>; now?: () => number }) {
  const now = deps.now ?? Date.now;
  let members: ReadonlyMap<number, AccountClockScope> | undefined;
  let readAt = 0;
  let generation = 0;
  let reading: Promise<ReadonlyMap<number, AccountClockScope>> | undefined;

  async function current(): Promise<ReadonlyMap<number, AccountClockScope>> {
    if (members && now() - readAt < REFRESH_MS) return members;
    if (!reading) {
      const asOf = generation;
      const startedAt = now();
      reading = testClocksRepo
        .members(deps.db)
        .then((rows) => {
          const read = new Map(rows.map((r) => [r.accountId, { clockId: r.clockId, time: r.time }] as const));
          // A change announced while this read ran may be missing from it: keep it only as a one-off answer.
          if (asOf === generation) {
            members = read;
            readAt = startedAt;
          }
          return read;
        })
        .finally(() => {
          reading = undefined;
        });
    }
    return reading;
  }

  return {
    /** The clock an account is on, if any (its id and time). */
    async of(accountId: number): Promise<AccountClockScope | undefined> {
      return (await current()).get(accountId);
    },
    /** A clock changed (here or in another process): the next question reads the set again. */
    invalidate(): void {
      generation += 1;
      members = undefined;
      reading = undefined;
    },
  };
}

export type ClockMembership = ReturnType<typeof createClockMembership>;
