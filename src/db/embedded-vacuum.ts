import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';

/**
 * Autovacuum for the embedded database. PGlite runs PostgreSQL in single-user mode: no autovacuum
 * launcher, and its activity counters are never flushed, so nothing would ever reclaim a deleted
 * or updated row nor refresh the planner's statistics. Under load the job queue then grows in dead
 * rows the scheduler's claim and its "next due" read walk through on every pass (measured: 1,270
 * dead index entries and 220 heap pages visited to find no due job after 10 s of cash-outs, the
 * planner still sizing the table at 7 rows), and the sandbox slows down the longer it runs.
 *
 * Every `queueEveryMs` the two due-queues the pollers scan (jobs, webhook deliveries) are vacuumed
 * and analysed; every `allEveryMs` every table of the schema is vacuumed, one statement per table so
 * the requests waiting on the one connection run in between, and analysed only every
 * `analyzeEveryMs` (an 82 MB table: its vacuum takes ~1 ms when little changed, its ANALYZE ~130 ms
 * of the one connection; the queues' plans need fresh statistics, the big tables' do not). A pass is
 * skipped when nothing was written since the last one (the WAL position did not move): an idle
 * sandbox does one read per tick. Every statement goes through the Kysely handle, whose driver lends
 * the one connection to one caller at a time: a VACUUM sent beside it could land inside a request's
 * transaction, where PostgreSQL refuses it and aborts that transaction.
 */
export interface EmbeddedVacuumOptions {
  queueEveryMs: number;
  allEveryMs: number;
  analyzeEveryMs: number;
  logger?: Logger | undefined;
}

export const EMBEDDED_VACUUM_DEFAULTS: EmbeddedVacuumOptions = { queueEveryMs: 5_000, allEveryMs: 60_000, analyzeEveryMs: 600_000 };

/** The tables the pollers claim from, in which every row is deleted or updated soon after it is written. */
export const QUEUE_TABLES = ['jobs', 'webhook_deliveries'] as const;

export interface EmbeddedVacuum {
  /** Runs a pass now (tests, and the timer). `all`: every table (analysed too when `analyze`), else the queues only. */
  pass(all: boolean, analyze?: boolean): Promise<void>;
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function startEmbeddedVacuum(db: Kysely<any>, closed: () => boolean, options: EmbeddedVacuumOptions = EMBEDDED_VACUUM_DEFAULTS): EmbeddedVacuum {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const lastLsn = { queues: '', all: '' };
  let sinceAll = 0;
  let sinceAnalyze = 0;

  async function tablesToVacuum(all: boolean): Promise<string[]> {
    const present = (
      await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
          WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
          ORDER BY c.relname`.execute(db)
    ).rows.map((r) => r.name);
    return all ? present : present.filter((name) => (QUEUE_TABLES as readonly string[]).includes(name));
  }

  /** `all`: every table (analysed too when `analyze`), else the queues only (always analysed). */
  const walPosition = async () => (await sql<{ lsn: string }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(db)).rows[0]!.lsn;

  async function pass(all: boolean, analyze = !all): Promise<void> {
    const key = all ? 'all' : 'queues';
    const lsn = await walPosition();
    if (lsn === lastLsn[key]) return;
    for (const table of await tablesToVacuum(all)) {
      if (stopped) return;
      const queue = (QUEUE_TABLES as readonly string[]).includes(table);
      await sql.raw(`VACUUM ${analyze || queue ? '(ANALYZE) ' : ''}${quoted(table)}`).execute(db);
    }
    const after = await walPosition();
    lastLsn[key] = after;
    if (all) lastLsn.queues = after;
  }

  function tick() {
    sinceAll += options.queueEveryMs;
    sinceAnalyze += options.queueEveryMs;
    const all = sinceAll >= options.allEveryMs;
    if (all) sinceAll = 0;
    const analyze = all && sinceAnalyze >= options.analyzeEveryMs;
    if (analyze) sinceAnalyze = 0;
    running = running
      .then(() => (stopped || closed() ? undefined : pass(all, all ? analyze : true)))
      .catch((error: unknown) => {
        if (!stopped && !closed()) options.logger?.warn({ err: error }, 'vacuuming the embedded database failed; trying again at the next pass');
      });
  }

  const timer = setInterval(tick, options.queueEveryMs);
  timer.unref();

  return {
    pass: (all, analyze) => {
      const next = running.then(() => pass(all, analyze ?? !all));
      running = next.catch(() => {});
      return next;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
