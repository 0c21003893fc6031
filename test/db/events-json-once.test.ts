import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const EVENTS_ONCE = '1000_events_json_once.sql';

/**
 * Issue 23 item 3 (migration 1000): an event's JSON is stored once, as json, which keeps the text
 * as written; what receivers get (the body, its key order and spacing) is the same for the events
 * written before the migration, after it, and by an older instance during a rolling upgrade.
 */
describe('events store their JSON once (migration 1000)', () => {
  let database: Database;
  let before: string;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    before = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    cpSync(MIGRATIONS_FOLDER, before, { recursive: true, filter: (source) => path.basename(source) !== EVENTS_ONCE });
  });
  afterAll(async () => {
    await database.close();
    rmSync(before, { recursive: true, force: true });
  });

  /** What the relay and the resend send for an event row. */
  const sent = async (id: number) =>
    (await sql<{ body: string }>`SELECT COALESCE(body, payload::text) AS body FROM events WHERE id = ${id}`.execute(database.db)).rows[0]!.body;

  it('old rows keep their exact text, in payload only; new and older-instance rows read the same way', async () => {
    const db = database.db;
    expect(await migrate(db, { migrations: before })).not.toContain(EVENTS_ONCE);
    const now = new Date('2026-11-26T12:00:00Z');
    const account = (
      await sql<{ id: number }>`INSERT INTO accounts (name, document, type, pix_key, limit_per_transaction, limit_daily, limit_nightly, created_at, updated_at)
        VALUES ('Loja', '12345678901', 'INDIVIDUAL', 'loja@example.com', 1, 1, 1, ${now}, ${now}) RETURNING id`.execute(db)
    ).rows[0]!;
    // Keys out of jsonb's order and a nested object: jsonb would answer `{"b": 1, "aa": {"z": 1, "y": [1, 2]}}`.
    const text = '{"event":"CashOut","b":1,"aa":{"z":1,"y":[1,2]},"amount":12.3}';
    const insert = (eventId: string, body: string | null, payload: string) =>
      sql<{ id: number }>`INSERT INTO events (event_id, account_id, type, payload, body, created_at)
        VALUES (${eventId}, ${account.id}, 'cash_out', ${payload}::jsonb, ${body}, ${now}) RETURNING id`.execute(db).then((r) => Number(r.rows[0]!.id));
    // As emit wrote it before: jsonb payload and the exact body; and one older than migration 200 (no body).
    const written = await insert('msg_before', text, text);
    const older = await insert('msg_before_200', null, text);
    const olderText = await sent(older);
    expect(await sent(written)).toBe(text);

    expect(await migrate(db, { migrations: MIGRATIONS_FOLDER })).toEqual([EVENTS_ONCE]);
    const type = await sql<{ t: string }>`SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'events'::regclass AND attname = 'payload'`.execute(db);
    expect(type.rows[0]!.t).toBe('json');
    // The same bytes as before, each stored once now.
    expect(await sent(written)).toBe(text);
    expect(await sent(older)).toBe(olderText);
    const rows = await db.selectFrom('events').select(['id', 'body', 'payload']).where('id', 'in', [written, older]).orderBy('id').execute();
    expect(rows.map((r) => r.body)).toEqual([null, null]);
    expect(rows[0]!.payload).toEqual(JSON.parse(text));

    // An older instance during a rolling upgrade still writes a jsonb payload and the body: readers send its body.
    const rolling = await insert('msg_rolling', text, text);
    expect(await sent(rolling)).toBe(text);
  });
});
