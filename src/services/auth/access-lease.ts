import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../db/schema.ts';
import { isDatabaseFailure } from '../../db/db-faults.ts';
import type { Listen } from '../../db/notifications.ts';

/**
 * The still-active memory's right to be used, across instances (issue 12 item 3; migration 730;
 * the reasoning in docs/decisions.md "Revocation exact with the still-active memory on").
 *
 * - Every update or deletion of a credential or certificate bumps one counter (`access_change.n`)
 *   in its own transaction and notifies the new number on `access_changed@<schema>` at commit.
 * - An instance may serve remembered answers only while (a) its listening connection is up and
 *   (b) it holds a fresh lease in `access_instances`. On each notification it forgets (a new
 *   epoch), then records `seen = n` (its acknowledgement).
 * - A lease is renewed only if the instance has acknowledged the counter as the renewal reads it;
 *   locally it ends `LEASE_MARGIN_MS` before the database's `lease_until`, measured from before the
 *   renewal was sent.
 * - A revocation, once committed as change N, answers when every instance with a fresh lease has
 *   seen >= N, or at the latest `LEASE_MS` (+ margin) after its commit: by then no lease granted
 *   without acknowledging N is still running, so no instance can still serve the revoked answer.
 */
export interface AccessTiming {
  /** Length of a lease (the database's `lease_until` = the renewal's start + this). */
  leaseMs: number;
  /** The instance stops using its memory this much before the database's lease ends. */
  marginMs: number;
  /** Renewal period while the memory is in use (an idle instance lets its lease lapse). */
  renewMs: number;
}

export const ACCESS_TIMING: AccessTiming = Object.freeze({ leaseMs: 4_000, marginMs: 500, renewMs: 1_500 });

/** How often, at most, a request finding no lease asks for one (a database outage must not storm). */
const KICK_EVERY_MS = 200;
/** Each step of stopping (listener, last heartbeat, removing the row) waits at most this long. */
const STOP_STEP_MS = 1_000;
/** Rows of instances whose lease ended this long ago are removed at start (crashed processes). */
const FORGET_DEAD_AFTER = '1 day';

/** What the bearer guard asks before using or filling its memory. */
export interface AccessTrust {
  /**
   * The memory's current epoch while it may be used; undefined while it may not. Anything remembered
   * under another epoch is void, and an answer asked under epoch e may be remembered only if the
   * epoch is still e when it arrives.
   */
  epoch(): number | undefined;
}

/** What a revoking command waits on after its commit. */
export interface AccessChanges {
  /**
   * Resolves once every live instance has forgotten what change `n` voids (or, at the latest, once
   * every lease that did not acknowledge it has ended): never rejects, bounded by the lease.
   */
  confirm(n: number): Promise<void>;
}

/** The change number a revoking transaction got from the trigger (read inside that transaction). */
export async function accessChangeNumber(trx: Transaction<DB> | Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT n FROM access_change`.execute(trx);
  return Number(rows[0]!.n);
}

export interface AccessLeaseState {
  instanceId: string;
  listening: boolean;
  /** Whether the memory may be used right now. */
  trusted: boolean;
  epoch: number;
  seen: number;
}

export function createAccessLease(deps: {
  db: Kysely<DB>;
  listen: Listen;
  logger: Logger;
  timing?: Partial<AccessTiming>;
  /** Monotonic milliseconds (tests pass their own). */
  now?: () => number;
}) {
  const timing: AccessTiming = { ...ACCESS_TIMING, ...deps.timing };
  if (timing.marginMs >= timing.leaseMs) throw new Error('access lease: the margin must be shorter than the lease');
  const now = deps.now ?? (() => performance.now());
  const instanceId = randomUUID();

  let started = false;
  let stopped = false;
  let listening = false;
  /** Bumped whenever the memory must be forgotten. */
  let epoch = 0;
  /** Highest change number whose effect has been forgotten here (what a heartbeat acknowledges). */
  let seen = 0;
  /** Local monotonic time until which the memory may be used (never after the database's lease - margin). */
  let leaseUntil = -Infinity;
  /** Changes whenever listening starts or stops: a renewal sent in another session grants nothing. */
  let session = 0;
  /** Whether the memory was asked for since the last periodic renewal. */
  let wanted = false;
  let lastKick = -Infinity;
  let beating: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  let beatFailures = 0;

  function forget() {
    epoch += 1;
  }

  /** Change `n` committed (its notification arrived, or this instance committed it): forget, then acknowledge. */
  function changed(n: number | undefined) {
    forget();
    if (n !== undefined && Number.isSafeInteger(n) && n > seen) seen = n;
    // Without a number (an older trigger), the heartbeat reads the counter, finds this instance
    // behind, and acknowledges what it read after forgetting again.
    void beat();
  }

  function setListening(on: boolean) {
    forget();
    session += 1;
    listening = on;
    // Stopped listening: no lease any more, here first, then in the database (the heartbeat with
    // listening false ends it there), so revocations do not wait for this instance.
    if (!on) leaseUntil = -Infinity;
    if (!stopped) void beat();
  }

  /** One heartbeat: acknowledges `seen`, renews the lease if this instance is current (and listening). */
  async function beatOnce() {
    const sentAt = now();
    const sentSession = session;
    const sentSeen = seen;
    const leaseMs = listening ? timing.leaseMs : 0;
    const { rows } = await sql<{ seen: number | string; n: number | string }>`
      WITH cur AS (SELECT n FROM access_change)
      INSERT INTO access_instances AS i (id, seen, lease_until, beat_at, pid, started_at)
      SELECT ${instanceId}, ${sentSeen},
             CASE WHEN ${sentSeen} >= cur.n THEN statement_timestamp() + ${leaseMs} * interval '1 millisecond' ELSE statement_timestamp() END,
             statement_timestamp(), ${process.pid}, statement_timestamp()
        FROM cur
      ON CONFLICT (id) DO UPDATE SET
        seen = GREATEST(i.seen, EXCLUDED.seen),
        -- Extended only by an instance that acknowledged every change this statement can see; a
        -- lease is never shortened while the instance may still be using it (it stops first).
        lease_until = CASE
          WHEN GREATEST(i.seen, EXCLUDED.seen) < (SELECT n FROM access_change) THEN i.lease_until
          ELSE statement_timestamp() + ${leaseMs} * interval '1 millisecond' END,
        beat_at = statement_timestamp()
      RETURNING i.seen, (SELECT n FROM access_change) AS n`.execute(deps.db);
    const row = rows[0]!;
    const acknowledged = Number(row.seen);
    const counter = Number(row.n);
    if (acknowledged < counter) {
      // A change this instance was not told of (its notification in flight, or lost): forget,
      // take the counter as seen (everything up to it committed before that read), acknowledge it
      // at once. The lease was not extended.
      forget();
      if (counter > seen) seen = counter;
      again = true;
      return;
    }
    if (leaseMs === 0 || sentSession !== session || !listening || stopped) return;
    const until = sentAt + leaseMs - timing.marginMs;
    // The lease had lapsed: whatever was remembered before is void (changes may have gone by unseen).
    if (now() >= leaseUntil) forget();
    if (until > leaseUntil) leaseUntil = until;
  }

  function beat(): Promise<void> {
    if (!started || stopped) return Promise.resolve();
    if (beating) {
      again = true;
      return beating;
    }
    beating = (async () => {
      do {
        again = false;
        try {
          await beatOnce();
          if (beatFailures > 0) deps.logger.info('access lease: the heartbeat works again');
          beatFailures = 0;
        } catch (error) {
          if (!isDatabaseFailure(error)) deps.logger.error({ err: error }, 'access lease: heartbeat failed');
          else if (beatFailures === 0) deps.logger.warn({ err: error }, 'access lease: heartbeat failed; the still-active check asks the database until it works');
          beatFailures += 1;
          return; // the next request or tick tries again
        }
      } while (again && !stopped);
    })().finally(() => {
      beating = undefined;
    });
    return beating;
  }

  const lease = {
    instanceId,
    epoch(): number | undefined {
      if (!started || stopped || !listening) return undefined;
      wanted = true;
      const t = now();
      if (t < leaseUntil) return epoch;
      if (!beating && t - lastKick >= KICK_EVERY_MS) {
        lastKick = t;
        void beat();
      }
      return undefined;
    },

    async confirm(n: number): Promise<void> {
      const committedBy = now(); // the commit returned before this: every lease without n ends by then + leaseMs
      const deadline = committedBy + timing.leaseMs + timing.marginMs;
      changed(n); // this instance's own memory: forgotten at once
      let delay = 2;
      let reported = false;
      for (;;) {
        const left = deadline - now();
        if (left <= 0) {
          deps.logger.warn({ change: n }, 'access lease: not every instance acknowledged a revocation; answered once their leases ended');
          return;
        }
        try {
          const pending = await withinMs(
            left,
            sql<{ pending: number | string }>`
              SELECT count(*) AS pending FROM access_instances
               WHERE seen < ${n} AND lease_until + ${timing.marginMs} * interval '1 millisecond' > clock_timestamp()`.execute(deps.db),
          );
          if (pending !== undefined && Number(pending.rows[0]!.pending) === 0) return;
        } catch (error) {
          // The change is committed; waiting out the leases is enough, so do not fail here (a
          // failure that is not the database's availability is a bug: logged as an error).
          if (!reported) {
            const level = isDatabaseFailure(error) ? 'warn' : 'error';
            deps.logger[level]({ err: error, change: n }, 'access lease: cannot read acknowledgements; waiting for the leases to end');
          }
          reported = true;
        }
        await sleep(Math.min(delay, Math.max(0, deadline - now())));
        delay = Math.min(delay * 2, 50);
      }
    },

    /** A background worker: started with the others, stopped before the database closes. */
    start() {
      if (started) return;
      started = true;
      stopped = false;
      void sql`DELETE FROM access_instances WHERE lease_until < now() - ${FORGET_DEAD_AFTER}::interval`
        .execute(deps.db)
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'access lease: could not remove the rows of dead instances'));
      unlisten ??= deps
        .listen(['access_changed'], {
          notify: (_name, payload) => changed(payload === undefined ? undefined : Number(payload)),
          listening: setListening,
        })
        .catch((error: unknown) => {
          // Not fatal: without notifications the memory is never used; every call asks the database.
          deps.logger.error({ err: error }, 'access lease: listening for credential and certificate changes failed; checking each request in the database');
          return undefined;
        });
      timer = setInterval(() => {
        if (wanted || again) void beat();
        wanted = false;
      }, timing.renewMs);
      timer.unref();
    },

    async stop() {
      if (!started || stopped) return;
      stopped = true;
      leaseUntil = -Infinity;
      forget();
      if (timer) clearInterval(timer);
      // Bounded: a shutdown must not hang on a database that does not answer.
      const listening = unlisten;
      unlisten = undefined;
      const stopListening = listening && (await withinMs(STOP_STEP_MS, listening));
      if (listening && stopListening === undefined) {
        // Still connecting: stop it once it is there.
        deps.logger.warn('access lease: the listener was still connecting at shutdown');
        void listening
          .then((stopLate) => stopLate?.())
          .catch((error: unknown) => deps.logger.warn({ err: error }, 'access lease: stopping the late listener failed'));
      }
      if (stopListening && (await withinMs(STOP_STEP_MS, stopListening().then(() => true))) === undefined) {
        deps.logger.warn('access lease: the listener did not stop in time');
      }
      if (beating && (await withinMs(STOP_STEP_MS, beating.then(() => true))) === undefined) {
        deps.logger.warn('access lease: a heartbeat still running at shutdown was left behind');
      }
      // Gone: revocations need not wait for this instance's lease.
      const removed = await withinMs(STOP_STEP_MS, sql`DELETE FROM access_instances WHERE id = ${instanceId}`.execute(deps.db)).catch((error: unknown) => {
        deps.logger.warn({ err: error }, "access lease: could not remove this instance's row (its lease ends by itself)");
        return null;
      });
      if (removed === undefined) deps.logger.warn("access lease: removing this instance's row took too long (its lease ends by itself)");
      started = false;
    },

    state(): AccessLeaseState {
      return { instanceId, listening, trusted: lease.peek(), epoch, seen };
    },

    /** Whether the memory may be used now, without asking for a lease. */
    peek(): boolean {
      return started && !stopped && listening && now() < leaseUntil;
    },

    /** Tests: one heartbeat now (resolves when done). */
    beat,
  };
  return lease;
}

export type AccessLease = ReturnType<typeof createAccessLease>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The promise's value (or its failure), or undefined if it has not settled within `ms`. A failure
 * after the timeout has nobody waiting for it: the statement's own bounds (query timeout) end it,
 * and it is not reported twice.
 */
function withinMs<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  promise.catch(() => undefined); // keeps a late failure from being an unhandled rejection
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
