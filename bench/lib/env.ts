/**
 * The benchmarks' shared settings, read from the environment: which databases to run on, and
 * numeric knobs with their defaults.
 */
export type Engine = 'pglite' | 'postgres';

export const PG_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

/** A positive number from the environment, or the default. */
export function num(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}=${raw} is not a number >= 0`);
  return value;
}

/**
 * BENCH_DB: pglite | postgres | both (default: both when a PostgreSQL URL is set, else pglite).
 * `ownCluster`: the benchmark can start its own PostgreSQL (bench/lib/postgres.ts), so no URL is needed.
 */
export function engines(options: { ownCluster?: boolean } = {}): Engine[] {
  const wanted = process.env.BENCH_DB ?? (PG_URL || process.env.BENCH_PG_URL ? 'both' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(wanted)) throw new Error(`BENCH_DB=${wanted}: pglite, postgres or both`);
  if (wanted !== 'pglite' && !PG_URL && !options.ownCluster) {
    console.error('BENCH_DB=postgres needs TEST_DATABASE_URL or DATABASE_URL');
    process.exit(2);
  }
  return wanted === 'both' ? ['pglite', 'postgres'] : [wanted as Engine];
}
