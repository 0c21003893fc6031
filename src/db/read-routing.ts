import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { isDatabaseFailure, isDatabaseUnavailable } from './db-faults.ts';
import { lsnOf, type ReadReplica } from './read-replica.ts';
import { readFencesRepo } from './repos/read-fences.repo.ts';
import type { DB } from './schema.ts';

/**
 * Where a read-only page or route reads (issue 31 item 3): the replica (DATABASE_READ_URL) when it is
 * up, within DATABASE_READ_MAX_LAG_MS, and has replayed the caller's own latest write; the primary
 * otherwise. A replica read that fails is read again on the primary: the replica never causes an error.
 *
 * Read-your-writes: after a caller's write, its fence (read_fences, on the primary, shared by every
 * process and instance) holds the primary's WAL position; until the replica's replayed position
 * passes it, that caller reads on the primary. A caller is an account (its API token, its portal
 * members) or the operators (admin API, portal operators, sandbox tools), whose writes fence everyone:
 * they change any account's data, and are rare.
 */
export type ReadCaller = { readonly accountId: number } | 'operators';

/** The fence every caller also waits for (the operators' writes). */
const EVERYONE = '*';

export const fenceKeyOf = (caller: ReadCaller) => (caller === 'operators' ? EVERYONE : `account:${caller.accountId}`);

export interface ReadRouting {
  /** True when a replica is configured (writes then raise fences). */
  readonly enabled: boolean;
  /** Runs a read on the replica when it may serve this caller, else (or when it fails) on the primary. */
  run<T>(caller: ReadCaller, read: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /** After these callers' writes committed: their next reads wait for the replica to pass them. */
  noteWrite(callers: readonly ReadCaller[]): Promise<void>;
  /** Where this caller's read would go now (tests, logs). */
  target(caller: ReadCaller): Promise<'replica' | 'primary'>;
}

export function createReadRouting(deps: { primary: Kysely<DB>; replica?: ReadReplica | undefined; logger?: Logger | undefined; now?: () => number }): ReadRouting {
  const { primary, replica, logger } = deps;
  const now = deps.now ?? Date.now;
  /**
   * Fences this process could not write (the primary failed right after the write): those callers
   * read on the primary for the lag bound, which is as long as a replica may be behind and still serve.
   */
  const heldUntil = new Map<string, number>();

  async function target(caller: ReadCaller): Promise<'replica' | 'primary'> {
    if (!replica) return 'primary';
    const fresh = replica.freshness();
    if (!fresh.up || fresh.replayedLsn === undefined || fresh.lagMs > replica.maxLagMs) return 'primary';
    const keys = caller === 'operators' ? [EVERYONE] : [fenceKeyOf(caller), EVERYONE];
    const at = now();
    for (const key of keys) {
      const until = heldUntil.get(key);
      if (until !== undefined && until > at) return 'primary';
      if (until !== undefined) heldUntil.delete(key);
    }
    const fence = await readFencesRepo.highest(primary, keys);
    return fence !== undefined && lsnOf(fence) > fresh.replayedLsn ? 'primary' : 'replica';
  }

  return {
    enabled: replica !== undefined,
    target,
    async run(caller, read) {
      if (!replica || (await target(caller)) === 'primary') return read(primary);
      try {
        return await read(replica.db);
      } catch (error) {
        // The database's answer (not our own code's, e.g. a not-found): a replica that went away, a
        // query cancelled by a recovery conflict, a table a migration has not reached there yet.
        if (!isDatabaseFailure(error)) throw error;
        if (isDatabaseUnavailable(error)) replica.markDown((error as Error).message);
        logger?.warn({ err: error }, 'read replica: a read failed there; read again on the primary');
        return read(primary);
      }
    },
    async noteWrite(callers) {
      if (!replica || callers.length === 0) return;
      const keys = callers.map(fenceKeyOf);
      try {
        await readFencesRepo.raise(primary, keys);
      } catch (error) {
        const until = now() + replica.maxLagMs;
        for (const key of keys) heldUntil.set(key, until);
        logger?.warn({ err: error, callers: keys }, 'read replica: could not record a write fence; these callers read on the primary for the lag bound');
      }
    },
  };
}

/** `database_replica_lag_seconds`: how far behind the primary the read replica is (only with DATABASE_READ_URL). */
export function registerReplicaLagMetric(registry: Registry, replica: ReadReplica | undefined) {
  if (!replica) return;
  new Gauge({
    name: 'database_replica_lag_seconds',
    help: 'Seconds since the latest moment the read replica (DATABASE_READ_URL) is known to reflect the primary; grows while it is down',
    registers: [registry],
    // WORKERS > 1: each process checks the replica; the scrape shows the most pessimistic.
    aggregator: 'max',
    collect() {
      this.set(replica.freshness().lagMs / 1000);
    },
  });
}
