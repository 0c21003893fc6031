/**
 * What one side's database did over a period, read from PostgreSQL itself (issue 23 item 3):
 *
 * - rows written per table: pg_stat_user_tables (n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del),
 *   read once the side's processes have stopped (a backend flushes its counters when it exits; the
 *   snapshot before the load is taken after more than PostgreSQL's 10 s idle flush interval);
 * - statements and their time: pg_stat_statements (calls, total_exec_time, rows), top level and
 *   nested (PL/pgSQL bodies), for the side's database;
 * - WAL: pg_stat_wal (bytes, records, full-page images) over the period, and every record between
 *   the two WAL positions decoded with pg_waldump: records and bytes by relation and by kind, so
 *   index entries (B-tree INSERT_LEAF records, one per entry) and heap writes (INSERT, UPDATE,
 *   HOT_UPDATE, DELETE, LOCK: a row lock dirties its page and is logged) are counted per index and
 *   per table;
 * - CPU: the cluster's processes (/proc, bench/lib/cpu.ts).
 * WAL and CPU are cluster-wide: exact for the benchmark's own cluster (nothing else runs on it),
 * not printed for a server given by BENCH_PG_URL.
 */
import type { BenchPostgres } from './postgres.ts';

export interface TableWrites {
  ins: number;
  upd: number;
  hot: number;
  del: number;
}

export interface StatementTime {
  query: string;
  toplevel: boolean;
  calls: number;
  ms: number;
  rows: number;
}

export interface WalPart {
  records: number;
  bytes: number;
  fpi: number;
}

export interface Work {
  tables: Map<string, TableWrites>;
  /** Index scans per index over the period (pg_stat_user_indexes.idx_scan): 0 = nobody read it. */
  indexScans: Map<string, number>;
  statements: StatementTime[];
  wal?: { bytes: number; records: number; fpi: number };
  /** By relation name (or "rel <filenode>" / "(no relation)"), then by "Rmgr/KIND". */
  walByRelation?: Map<string, Map<string, WalPart>>;
  cpuSeconds?: number;
}

interface Mark {
  tables: Map<string, TableWrites>;
  indexScans: Map<string, number>;
  lsn?: string;
  wal?: { bytes: number; records: number; fpi: number };
  cpu?: number;
}

async function tables(pgs: BenchPostgres, database: string): Promise<Map<string, TableWrites>> {
  const rows = await pgs.query<{ name: string; ins: string; upd: string; hot: string; del: string }>(
    `SELECT relname AS name, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del FROM pg_stat_user_tables`,
    [],
    database,
  );
  return new Map(rows.map((r) => [r.name, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), del: Number(r.del) }]));
}

async function indexScans(pgs: BenchPostgres, database: string): Promise<Map<string, number>> {
  const rows = await pgs.query<{ name: string; scans: string }>(`SELECT indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes`, [], database);
  return new Map(rows.map((r) => [r.name, Number(r.scans)]));
}

async function walNow(pgs: BenchPostgres) {
  const [row] = await pgs.query<{ lsn: string; bytes: string; records: string; fpi: string }>(
    `SELECT pg_current_wal_lsn()::text AS lsn, wal_bytes AS bytes, wal_records AS records, wal_fpi AS fpi FROM pg_stat_wal`,
  );
  return { lsn: row!.lsn, wal: { bytes: Number(row!.bytes), records: Number(row!.records), fpi: Number(row!.fpi) } };
}

/** Before the load: the side has been idle past the stats flush interval. */
export async function markWork(pgs: BenchPostgres, database: string): Promise<Mark> {
  const own = pgs.cluster !== undefined;
  return { tables: await tables(pgs, database), indexScans: await indexScans(pgs, database), ...(own ? await walNow(pgs) : {}), ...(own ? { cpu: pgs.cpuSeconds()! } : {}) };
}

/** The CPU reading at the end of the period (call it before stopping the side's processes). */
export const cpuNow = (pgs: BenchPostgres) => pgs.cpuSeconds();

/** After the side's processes have stopped (their counters flushed). */
export async function workSince(pgs: BenchPostgres, database: string, mark: Mark, cpuAtEnd: number | undefined): Promise<Work> {
  const now = await tables(pgs, database);
  const diff = new Map<string, TableWrites>();
  for (const [name, t] of now) {
    const b = mark.tables.get(name) ?? { ins: 0, upd: 0, hot: 0, del: 0 };
    const d = { ins: t.ins - b.ins, upd: t.upd - b.upd, hot: t.hot - b.hot, del: t.del - b.del };
    if (d.ins || d.upd || d.del) diff.set(name, d);
  }
  const statements = pgs.statements
    ? (
        await pgs.query<{ query: string; toplevel: boolean; calls: string; ms: number; rows: string }>(
          `SELECT s.query, s.toplevel, s.calls, s.total_exec_time + s.total_plan_time AS ms, s.rows
             FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
            WHERE d.datname = $1 AND s.query NOT LIKE '%bench-observer%' ORDER BY ms DESC`,
          [database],
        )
      ).map((r) => ({ query: r.query, toplevel: r.toplevel, calls: Number(r.calls), ms: Number(r.ms), rows: Number(r.rows) }))
    : [];
  const scans = new Map([...(await indexScans(pgs, database))].map(([name, n]) => [name, n - (mark.indexScans.get(name) ?? 0)]));
  const work: Work = { tables: diff, indexScans: scans, statements };
  if (pgs.cluster && mark.lsn && mark.wal) {
    const end = await walNow(pgs);
    work.wal = { bytes: end.wal.bytes - mark.wal.bytes, records: end.wal.records - mark.wal.records, fpi: end.wal.fpi - mark.wal.fpi };
    work.walByRelation = await walByRelation(pgs, database, mark.lsn, end.lsn);
  }
  if (cpuAtEnd !== undefined && mark.cpu !== undefined) work.cpuSeconds = cpuAtEnd - mark.cpu;
  return work;
}

/** Decodes the WAL between two positions (pg_waldump) and sums it by relation and record kind. */
async function walByRelation(pgs: BenchPostgres, database: string, start: string, end: string): Promise<Map<string, Map<string, WalPart>>> {
  const cluster = pgs.cluster!;
  const names = new Map(
    (
      await pgs.query<{ node: string; name: string }>(
        `SELECT pg_relation_filenode(c.oid)::text AS node, c.relname AS name FROM pg_class c WHERE pg_relation_filenode(c.oid) IS NOT NULL`,
        [],
        database,
      )
    ).map((r) => [r.node, r.name]),
  );
  const text = start === end ? '' : cluster.run('pg_waldump', ['-p', `${cluster.dataDir}/pg_wal`, '-s', start, '-e', end]);
  const out = new Map<string, Map<string, WalPart>>();
  const line = /^rmgr: (\S+)\s+len \(rec\/tot\):\s*\d+\/\s*(\d+), tx:.*?desc: (\S+)(.*)$/;
  for (const l of text.split('\n')) {
    const m = line.exec(l);
    if (!m) continue;
    const [, rmgr, tot, kind, rest] = m;
    const rel = /blkref #0: rel \d+\/(\d+)\/(\d+)/.exec(rest!);
    const relation = rel ? (names.get(rel[2]!) ?? `rel ${rel[2]}`) : '(no relation)';
    const fpi = (rest!.match(/FPW/g) ?? []).length;
    const byKind = out.get(relation) ?? new Map<string, WalPart>();
    out.set(relation, byKind);
    const key = `${rmgr}/${kind}`;
    const part = byKind.get(key) ?? { records: 0, bytes: 0, fpi: 0 };
    part.records += 1;
    part.bytes += Number(tot);
    part.fpi += fpi;
    byKind.set(key, part);
  }
  return out;
}

/** Index entries written: B-tree leaf inserts (one record per entry, a split's new item included). */
export function indexEntries(byKind: Map<string, WalPart>): number {
  let n = 0;
  for (const [kind, part] of byKind) if (kind === 'Btree/INSERT_LEAF' || kind === 'Btree/INSERT_POST' || kind.startsWith('Btree/SPLIT')) n += part.records;
  return n;
}
