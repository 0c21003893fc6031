import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { FUNCTIONS_FOLDER, readFunctionSources } from '../../src/db/function-sources.ts';
import { migrate } from '../../src/db/migrate.ts';

/**
 * Issue 22 item 1 on PostgreSQL: several processes starting at once on one database take turns on
 * migrate's advisory lock, so the schema and every function file are applied exactly once, and a
 * changed function file is applied again by exactly one of them.
 */
const url = process.env.TEST_DATABASE_URL!;
const schema = `t_${randomBytes(6).toString('hex')}`;
const INSTANCES = 4;
let instances: Database[] = [];
let functions: string;

beforeAll(async () => {
  functions = mkdtempSync(path.join(tmpdir(), 'functions-'));
  cpSync(FUNCTIONS_FOLDER, functions, { recursive: true });
  // Each its own pool, as separate processes would have. One after the other: openDatabase's
  // CREATE SCHEMA IF NOT EXISTS (a test isolation aid) is not safe to run concurrently.
  for (let i = 0; i < INSTANCES; i++) instances.push(await openDatabase({ dataDir: 'memory://', databaseUrl: url, schema, poolSize: 2 }));
});
afterAll(async () => {
  await Promise.all(instances.map((d) => d.close()));
  rmSync(functions, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

describe('migrate on PostgreSQL, several instances at once', () => {
  it('a fresh schema: every migration and function file applied once, by one of them', async () => {
    const results = await Promise.allSettled(instances.map((d) => migrate(d.db, { functions })));
    expect(results.map((r) => r.status)).toEqual(Array(INSTANCES).fill('fulfilled'));
    const lists = results.map((r) => (r as PromiseFulfilledResult<string[]>).value);
    const applied = lists.flat();
    expect(new Set(applied).size).toBe(applied.length);
    expect(lists.filter((l) => l.length > 0)).toHaveLength(1);
    expect(applied).toEqual(expect.arrayContaining(readFunctionSources(functions).map((s) => `functions/${s.file}`)));
    const overloads = await sql<{ name: string; n: number }>`
      SELECT proname AS name, count(*)::int AS n FROM pg_proc WHERE pronamespace = current_schema()::regnamespace GROUP BY proname ORDER BY proname`.execute(instances[0]!.db);
    expect(overloads.rows).toEqual(readFunctionSources(functions).map((s) => ({ name: s.sqlName, n: 1 })).sort((a, b) => a.name.localeCompare(b.name)));
  });

  it('a changed function file: exactly one instance applies its new version (and its callers\'), beside the old one', async () => {
    const before = readFunctionSources(functions).find((s) => s.name === 'admit_payouts')!;
    const file = path.join(functions, 'admit_payouts.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace('BEGIN\n  IF n = 0 THEN RETURN; END IF;', 'BEGIN\n  -- changed by the test\n  IF n = 0 THEN RETURN; END IF;'));
    const after = readFunctionSources(functions).find((s) => s.name === 'admit_payouts')!;
    const lists = await Promise.all(instances.map((d) => migrate(d.db, { functions })));
    expect(lists.flat()).toEqual(['functions/admit_payouts.sql']);
    const source = await sql<{ name: string; src: string }>`
      SELECT proname AS name, prosrc AS src FROM pg_proc WHERE proname LIKE 'admit_payouts%' AND pronamespace = current_schema()::regnamespace ORDER BY 1`.execute(instances[1]!.db);
    expect(source.rows.map((r) => r.name).sort()).toEqual([before.sqlName, after.sqlName].sort());
    expect(source.rows.find((r) => r.name === after.sqlName)!.src).toContain('-- changed by the test');
    expect(source.rows.find((r) => r.name === before.sqlName)!.src).not.toContain('-- changed by the test');
  });

  it('an instance whose turn comes after a migration longer than the pool lock timeout waits for it instead of failing', async () => {
    // Another instance migrating: it holds migrate's advisory lock for 2 s more than this pool's lock timeout.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const lockMs = 1000;
    const late = await openDatabase({ dataDir: 'memory://', databaseUrl: url, schema, poolSize: 2, timeouts: { lockMs } as never });
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(7256001)');
      const release = setTimeout(() => void holder.query('COMMIT'), lockMs + 2000);
      const started = Date.now();
      await expect(migrate(late.db, { functions })).resolves.toEqual([]);
      // It waited for the other instance's turn to end (a lock timeout would have answered sooner, with 55P03).
      expect(Date.now() - started).toBeGreaterThanOrEqual(lockMs + 1500);
      clearTimeout(release);
    } finally {
      await holder.end().catch(() => {});
      await late.close();
    }
  });
});
