import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { FUNCTIONS_FOLDER, readFunctionSources } from '../../src/db/function-sources.ts';
import { migrate } from '../../src/db/migrate.ts';
import { functionsDefinedIn, functionsDefinedTwice } from '../../src/db/sql-text.ts';

/**
 * Issue 22 item 1: server-side functions are code, one current source each (src/db/functions/),
 * applied by migrate by the hash of their content; migrations hold schema and data changes only.
 */
const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const sqlFiles = (folder: string, prefix: string) =>
  readdirSync(folder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ file: prefix + f, text: readFileSync(path.join(folder, f), 'utf8') }));

/** The body between a file's first dollar quote and its closing one: what pg_proc.prosrc holds. */
function bodyOf(text: string): string {
  const tag = /\$[A-Za-z_]*\$/.exec(text)![0];
  const start = text.indexOf(tag) + tag.length;
  return text.slice(start, text.indexOf(tag, start));
}

async function sourcesInDatabase(db: Kysely<any>): Promise<Map<string, string[]>> {
  const rows = await sql<{ name: string; src: string }>`
    SELECT proname AS name, prosrc AS src FROM pg_proc WHERE pronamespace = current_schema()::regnamespace ORDER BY oid`.execute(db);
  const out = new Map<string, string[]>();
  for (const r of rows.rows) out.set(r.name, [...(out.get(r.name) ?? []), r.src]);
  return out;
}

describe('one definition per function', () => {
  const functions = sqlFiles(FUNCTIONS_FOLDER, 'src/db/functions/');
  const migrations = sqlFiles(MIGRATIONS_FOLDER, 'src/db/migrations/');

  it('no function is defined by two files of src/db/functions and src/db/migrations', () => {
    expect(Object.fromEntries(functionsDefinedTwice([...functions, ...migrations]))).toEqual({});
  });

  it('no migration defines a function: migrations hold schema and data changes only', () => {
    const defining = migrations.filter(({ text }) => functionsDefinedIn(text).length > 0).map((m) => m.file);
    expect(defining).toEqual([]);
  });

  it('each function file defines the function it is named after, and the known ones are there', () => {
    const sources = readFunctionSources();
    expect(sources.map((s) => s.name)).toEqual(functions.map((f) => path.basename(f.file, '.sql')));
    expect(sources.map((s) => s.name)).toEqual(expect.arrayContaining(['admit_payouts', 'ledger_apply', 'notify_access_changed', 'notify_due']));
    expect(sources.filter((s) => s.returnsTrigger).map((s) => s.name).sort()).toEqual(['notify_access_changed', 'notify_due']);
  });

  it('the check finds a function two files define, whatever their spelling, and nothing in comments or bodies', () => {
    const twice = functionsDefinedTwice([
      { file: 'functions/fee.sql', text: 'CREATE OR REPLACE FUNCTION fee(a bigint) RETURNS bigint LANGUAGE sql AS $$ SELECT a $$;' },
      { file: 'migrations/990_x.sql', text: "-- CREATE FUNCTION ignored_in_a_comment()\nALTER TABLE t ADD c int;\ncreate function public.FEE (a int) returns int language sql as 'select 1';" },
      { file: 'migrations/991_y.sql', text: 'CREATE FUNCTION other() RETURNS void LANGUAGE plpgsql AS $fn$ BEGIN EXECUTE $q$CREATE FUNCTION fee() $q$; END $fn$;' },
      { file: 'migrations/992_z.sql', text: 'CREATE OR REPLACE FUNCTION "Quoted"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;\nCREATE FUNCTION "Quoted"() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;' },
    ]);
    expect(Object.fromEntries(twice)).toEqual({ fee: ['functions/fee.sql', 'migrations/990_x.sql'], Quoted: ['migrations/992_z.sql', 'migrations/992_z.sql'] });
  });

  it('a function file with anything but its one CREATE OR REPLACE FUNCTION is refused, naming the file', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'functions-'));
    try {
      const cases: Array<[string, string]> = [
        ['named.sql', 'CREATE OR REPLACE FUNCTION other() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;'],
        ['two.sql', 'CREATE OR REPLACE FUNCTION two() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\nCREATE TABLE t (x int);'],
        ['plain.sql', 'CREATE FUNCTION plain() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;'],
      ];
      for (const [file, text] of cases) {
        writeFileSync(path.join(folder, file), text);
        expect(() => readFunctionSources(folder)).toThrow(`src/db/functions/${file}`);
        rmSync(path.join(folder, file));
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('migrate applies the function files by the hash of their content', () => {
  let database: Database;
  let functions: string;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(() => database.close());
  afterEach(() => rmSync(functions, { recursive: true, force: true }));
  const copyOfFunctions = () => {
    functions = mkdtempSync(path.join(tmpdir(), 'functions-'));
    cpSync(FUNCTIONS_FOLDER, functions, { recursive: true });
    return functions;
  };
  const edit = (file: string, change: (text: string) => string) => writeFileSync(path.join(functions, file), change(readFileSync(path.join(functions, file), 'utf8')));

  it('a fresh database runs exactly the source of every file, triggers attached, each hash recorded', async () => {
    const folder = copyOfFunctions();
    const applied = await migrate(database.db, { functions: folder });
    const sources = readFunctionSources(folder);
    expect(applied).toEqual(expect.arrayContaining(sources.map((s) => `functions/${s.file}`)));
    expect(applied).toContain('680_due_notifications.sql');
    const inDatabase = await sourcesInDatabase(database.db);
    for (const s of sources) expect(inDatabase.get(s.name), s.name).toEqual([bodyOf(readFileSync(path.join(folder, s.file), 'utf8'))]);
    const recorded = await sql<{ name: string; sha256: string }>`SELECT name, sha256 FROM schema_functions ORDER BY name`.execute(database.db);
    expect(recorded.rows).toEqual(sources.map((s) => ({ name: s.name, sha256: s.sha256 })).sort((a, b) => a.name.localeCompare(b.name)));
    const triggers = await sql<{ tgname: string; fn: string }>`
      SELECT t.tgname, p.proname AS fn FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE NOT t.tgisinternal ORDER BY t.tgname`.execute(database.db);
    expect(triggers.rows).toEqual([
      { tgname: 'certificates_access_changed', fn: 'notify_access_changed' },
      { tgname: 'credentials_access_changed', fn: 'notify_access_changed' },
      { tgname: 'jobs_notify_due', fn: 'notify_due' },
      { tgname: 'webhook_deliveries_notify_due', fn: 'notify_due' },
    ]);
    expect(await migrate(database.db, { functions: folder })).toEqual([]);
  });

  it('a changed file is applied again on the next migrate, and only that one', async () => {
    const folder = copyOfFunctions();
    await migrate(database.db, { functions: folder });
    edit('ledger_apply.sql', (text) => text.replace('BEGIN\n  CASE p_op', 'BEGIN\n  -- changed by the test\n  CASE p_op'));
    expect(await migrate(database.db, { functions: folder })).toEqual(['functions/ledger_apply.sql']);
    expect((await sourcesInDatabase(database.db)).get('ledger_apply')![0]).toContain('-- changed by the test');
    expect(await migrate(database.db, { functions: folder })).toEqual([]);
  });

  it('a changed argument list replaces the function: no older overload is left behind', async () => {
    const folder = copyOfFunctions();
    await migrate(database.db, { functions: folder });
    edit('admit_payouts.sql', (text) => text.replace('p_items jsonb,', 'p_items jsonb, p_added_by_test int,'));
    expect(await migrate(database.db, { functions: folder })).toEqual(['functions/admit_payouts.sql']);
    const overloads = await sql<{ args: string }>`
      SELECT pg_get_function_identity_arguments(oid) AS args FROM pg_proc WHERE proname = 'admit_payouts' AND pronamespace = current_schema()::regnamespace`.execute(database.db);
    expect(overloads.rows).toHaveLength(1);
    expect(overloads.rows[0]!.args).toContain('p_added_by_test integer');
    // Back to the service's own source for the next tests.
    expect(await migrate(database.db)).toEqual(['functions/admit_payouts.sql']);
  });

  it('a changed trigger function is replaced in place: its triggers keep firing it', async () => {
    const folder = copyOfFunctions();
    await migrate(database.db, { functions: folder });
    edit('notify_due.sql', (text) => text.replace('RETURN NULL;', "PERFORM pg_notify('test_saw@' || current_schema(), TG_TABLE_NAME);\n  RETURN NULL;"));
    expect(await migrate(database.db, { functions: folder })).toEqual(['functions/notify_due.sql']);
    const heard: string[] = [];
    const stop = await database.listen(['test_saw'], { notify: (_name, payload) => heard.push(payload ?? '') });
    try {
      await sql`INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at) VALUES ('test', now(), '{}', 1, now(), now())`.execute(database.db);
      await expect.poll(() => heard, { timeout: 10_000 }).toEqual(['jobs']);
    } finally {
      await stop();
      await sql`DELETE FROM jobs WHERE kind = 'test'`.execute(database.db);
    }
    expect(await migrate(database.db)).toEqual(['functions/notify_due.sql']);
  });

  it('a function dropped behind migrate is created again, though its recorded hash is current', async () => {
    await migrate(database.db);
    await sql`DROP FUNCTION ledger_apply(text, jsonb, timestamptz, boolean)`.execute(database.db);
    expect(await migrate(database.db)).toEqual(['functions/ledger_apply.sql']);
    expect((await sourcesInDatabase(database.db)).get('ledger_apply')).toHaveLength(1);
  });

  it('a database migrated before the function files existed (old bodies, no schema_functions) gets every file', async () => {
    await migrate(database.db);
    await sql`DROP TABLE schema_functions`.execute(database.db);
    // Migration 690's body, replaced by 730's in the old migrations: what such a database may run.
    await sql.raw(`CREATE OR REPLACE FUNCTION notify_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('access_changed@' || current_schema(), TG_TABLE_NAME); RETURN NULL; END $$`).execute(database.db);
    const applied = await migrate(database.db);
    expect(applied.sort()).toEqual(readFunctionSources().map((s) => `functions/${s.file}`).sort());
    const inDatabase = await sourcesInDatabase(database.db);
    for (const s of readFunctionSources()) expect(inDatabase.get(s.name), s.name).toEqual([bodyOf(readFileSync(path.join(FUNCTIONS_FOLDER, s.file), 'utf8'))]);
  });
});
