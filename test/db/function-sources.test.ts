import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { CALLED_FUNCTIONS, FUNCTION_VERSION_RETENTION_HOURS, FUNCTIONS_FOLDER, readFunctionSources } from '../../src/db/function-sources.ts';
import { buildGeneration, migrate, schemaMismatch } from '../../src/db/migrate.ts';
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
    expect(sources.filter((s) => s.returnsTrigger).map((s) => s.name).sort()).toEqual(['notify_access_changed', 'notify_due', 'notify_test_clocks', 'postings_hold_compat']);
  });

  it('every function the code calls by fn() has its file, and every other non-trigger file is called by another file', () => {
    const sources = readFunctionSources();
    const versioned = sources.filter((s) => !s.returnsTrigger);
    expect(versioned.map((s) => s.name)).toEqual(expect.arrayContaining([...CALLED_FUNCTIONS]));
    for (const s of versioned.filter((v) => !(CALLED_FUNCTIONS as readonly string[]).includes(v.name))) {
      expect(sources.some((other) => other.statement.includes(`${s.sqlName}(`)), s.name).toBe(true);
    }
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

describe('migrate applies the function files as versions (issue 28 item 4: an older build never replaces a newer body)', () => {
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
  const versionOf = (folder: string, name: string) => readFunctionSources(folder).find((s) => s.name === name)!;

  it('a fresh database runs every file under its versioned name (its callees\' versions inside), triggers attached, each version recorded', async () => {
    const folder = copyOfFunctions();
    const applied = await migrate(database.db, { functions: folder });
    const sources = readFunctionSources(folder);
    expect(applied).toEqual(expect.arrayContaining(sources.map((s) => `functions/${s.file}`)));
    expect(applied).toContain('680_due_notifications.sql');
    const inDatabase = await sourcesInDatabase(database.db);
    for (const s of sources) {
      expect(inDatabase.get(s.sqlName), s.name).toEqual([bodyOf(s.statement)]);
      if (s.returnsTrigger) expect(s.sqlName).toBe(s.name);
      else expect(s.sqlName).toMatch(new RegExp(`^${s.name}_v[0-9a-f]{10}$`));
    }
    // admit_payouts calls this build's versions of ledger_apply and of its phases (the first checks
    // call debit_item_check's, which calls pix_fee's), never the names without a version.
    const admit = versionOf(folder, 'admit_payouts').statement;
    expect(admit).toContain(`${versionOf(folder, 'ledger_apply').sqlName}(`);
    expect(admit).toContain(`${versionOf(folder, 'admission_first_checks').sqlName}(`);
    expect(versionOf(folder, 'admission_first_checks').statement).toContain(`${versionOf(folder, 'debit_item_check').sqlName}(`);
    expect(versionOf(folder, 'debit_item_check').statement).toContain(`${versionOf(folder, 'pix_fee').sqlName}(`);
    expect(admit).not.toMatch(/(?<![\w$])ledger_apply\s*\(/);
    const recorded = await sql<{ name: string; sha256: string }>`SELECT name, sha256 FROM schema_functions ORDER BY name`.execute(database.db);
    expect(recorded.rows).toEqual(sources.map((s) => ({ name: s.sqlName, sha256: s.sha256 })).sort((a, b) => a.name.localeCompare(b.name)));
    const triggers = await sql<{ tgname: string; fn: string }>`
      SELECT t.tgname, p.proname AS fn FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE NOT t.tgisinternal ORDER BY t.tgname`.execute(database.db);
    expect(triggers.rows).toEqual([
      { tgname: 'certificates_access_changed', fn: 'notify_access_changed' },
      { tgname: 'credentials_access_changed', fn: 'notify_access_changed' },
      { tgname: 'jobs_notify_due', fn: 'notify_due' },
      { tgname: 'postings_hold_compat', fn: 'postings_hold_compat' },
      { tgname: 'test_clock_accounts_notify', fn: 'notify_test_clocks' },
      { tgname: 'test_clocks_notify', fn: 'notify_test_clocks' },
      { tgname: 'webhook_deliveries_notify_due', fn: 'notify_due' },
    ]);
    expect(await migrate(database.db, { functions: folder })).toEqual([]);
    expect(await schemaMismatch(database.db)).toBeUndefined();
  });

  it('a newer build\'s changed function is a new version beside the old one (its callers too); the older build starting after it changes nothing of it', async () => {
    const older = copyOfFunctions();
    await migrate(database.db, { functions: older });
    const newer = mkdtempSync(path.join(tmpdir(), 'functions-newer-'));
    try {
      cpSync(FUNCTIONS_FOLDER, newer, { recursive: true });
      const file = path.join(newer, 'ledger_apply.sql');
      writeFileSync(file, readFileSync(file, 'utf8').replace('BEGIN\n  CASE p_op', 'BEGIN\n  -- changed by the newer build\n  CASE p_op'));
      expect((await migrate(database.db, { functions: newer })).sort()).toEqual(['functions/admit_payouts.sql', 'functions/ledger_apply.sql']);
      const newLedger = versionOf(newer, 'ledger_apply');
      const oldLedger = versionOf(older, 'ledger_apply');
      expect(newLedger.sqlName).not.toBe(oldLedger.sqlName);
      // The older build restarts: it finds its own versions and applies nothing; both bodies stay as written.
      expect(await migrate(database.db, { functions: older })).toEqual([]);
      const inDatabase = await sourcesInDatabase(database.db);
      expect(inDatabase.get(newLedger.sqlName)![0]).toContain('-- changed by the newer build');
      expect(inDatabase.get(oldLedger.sqlName)![0]).not.toContain('-- changed by the newer build');
      expect(inDatabase.get(versionOf(newer, 'admit_payouts').sqlName)![0]).toContain(newLedger.sqlName);
    } finally {
      rmSync(newer, { recursive: true, force: true });
    }
  });

  it('a trigger function is replaced in place only by a build of the same generation or newer than the one that wrote it', async () => {
    const folder = copyOfFunctions();
    await migrate(database.db, { functions: folder });
    edit('notify_due.sql', (text) => text.replace('RETURN NULL;', "PERFORM pg_notify('test_saw@' || current_schema(), TG_TABLE_NAME);\n  RETURN NULL;"));
    // A newer generation wrote the current body: this build's changed file does not replace it.
    await sql`UPDATE schema_functions SET generation = ${buildGeneration() + 1} WHERE name = 'notify_due'`.execute(database.db);
    expect(await migrate(database.db, { functions: folder })).toEqual([]);
    expect((await sourcesInDatabase(database.db)).get('notify_due')![0]).not.toContain('test_saw');
    // Written by this generation: replaced in place, and its triggers keep firing it.
    await sql`UPDATE schema_functions SET generation = ${buildGeneration()} WHERE name = 'notify_due'`.execute(database.db);
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

  it('a version dropped behind migrate: GET /ready\'s schema check names it, and the next migrate creates it again', async () => {
    await migrate(database.db);
    const ledger = readFunctionSources().find((s) => s.name === 'ledger_apply')!;
    await sql.raw(`DROP FUNCTION ${ledger.sqlName}(text, jsonb, timestamptz, boolean)`).execute(database.db);
    expect(await schemaMismatch(database.db)).toContain(ledger.sqlName);
    expect(await migrate(database.db)).toEqual(['functions/ledger_apply.sql']);
    expect((await sourcesInDatabase(database.db)).get(ledger.sqlName)).toHaveLength(1);
    expect(await schemaMismatch(database.db)).toBeUndefined();
  });

  it('versions no build has started with or beaten for the retention period go; this build\'s, recent ones and names without a version stay', async () => {
    await migrate(database.db);
    const own = readFunctionSources().find((s) => s.name === 'pix_fee')!;
    // Another build's version, long unseen; another's seen lately; a build before versioning's plain name.
    await sql.raw(`CREATE FUNCTION pix_fee_v00000000aa(a bigint) RETURNS bigint LANGUAGE sql AS $$ SELECT a $$`).execute(database.db);
    await sql.raw(`CREATE FUNCTION pix_fee_v00000000bb(a bigint) RETURNS bigint LANGUAGE sql AS $$ SELECT a $$`).execute(database.db);
    await sql.raw(`CREATE FUNCTION pix_fee(a bigint) RETURNS bigint LANGUAGE sql AS $$ SELECT a $$`).execute(database.db);
    await sql`INSERT INTO schema_functions (name, sha256, last_seen_at) VALUES
      ('pix_fee_v00000000aa', 'x', now() - make_interval(hours => ${FUNCTION_VERSION_RETENTION_HOURS + 1})),
      ('pix_fee_v00000000bb', 'y', now() - interval '1 hour')`.execute(database.db);
    await sql`UPDATE schema_functions SET last_seen_at = now() - make_interval(hours => ${FUNCTION_VERSION_RETENTION_HOURS * 2}) WHERE name = ${own.sqlName}`.execute(database.db);
    expect(await migrate(database.db)).toEqual([]);
    const names = [...(await sourcesInDatabase(database.db)).keys()].filter((n) => n.startsWith('pix_fee'));
    expect(names.sort()).toEqual(['pix_fee', 'pix_fee_v00000000bb', own.sqlName].sort());
    await sql`DROP FUNCTION pix_fee_v00000000bb(bigint)`.execute(database.db);
    await sql`DROP FUNCTION pix_fee(bigint)`.execute(database.db);
    await sql`DELETE FROM schema_functions WHERE name = 'pix_fee_v00000000bb'`.execute(database.db);
  });

  it('GET /ready\'s schema check: a newer build that marked the schema as needing a newer generation is named, with both generations', async () => {
    await migrate(database.db);
    await sql`UPDATE schema_compat SET min_generation = ${buildGeneration() + 7}`.execute(database.db);
    try {
      expect(await schemaMismatch(database.db)).toBe(
        `the database's schema needs a build of generation ${buildGeneration() + 7} or newer (a newer build's migrations changed what this build relies on); this build is generation ${buildGeneration()}`,
      );
    } finally {
      await sql`UPDATE schema_compat SET min_generation = 0`.execute(database.db);
    }
    expect(await schemaMismatch(database.db)).toBeUndefined();
  });
});
