import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFLICT_ATTEMPTS, transact } from '../../src/db/transact.ts';
import { startHarness, type Harness } from '../harness.ts';
import { payer } from '../payouts/helpers.ts';

/**
 * Issue 10 item 4: a money command PostgreSQL aborted to break a deadlock (40P01) or a serialization
 * conflict (40001) is rerun from the start, its first run rolled back; once the reruns are spent
 * the request answers 503 with Retry-After, never 500. (A real deadlock on PostgreSQL:
 * test/postgres/transact-deadlock.test.ts.)
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const conflict = (code: '40P01' | '40001') => Object.assign(new Error(code === '40P01' ? 'deadlock detected' : 'could not serialize access'), { code });
const nameOf = async (id: number) => (await h.c.db.selectFrom('accounts').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;

describe('transact', () => {
  it('a lock budget (what a command has left after waiting for its account) bounds its lock waits for that transaction only', async () => {
    const show = async (db: Parameters<typeof transact>[0] | Parameters<Parameters<typeof transact>[1]>[0]) =>
      (await sql<{ lock_timeout: string }>`SHOW lock_timeout`.execute(db)).rows[0]!.lock_timeout;
    const session = await show(h.c.db);
    expect(await transact(h.c.db, (trx) => show(trx), { lockTimeoutMs: 1234.7 })).toBe('1234ms');
    expect(await transact(h.c.db, (trx) => show(trx))).toBe(session);
    expect(await show(h.c.db)).toBe(session);
  });

  it.each(['40P01', '40001'] as const)('reruns a command aborted with %s; what the aborted run wrote is rolled back', async (code) => {
    const { id } = await h.createAccount({ name: 'Conta' });
    let runs = 0;
    const result = await transact(h.c.db, async (trx) => {
      runs += 1;
      await trx.updateTable('accounts').set({ name: sql`name || '+'` }).where('id', '=', id).execute();
      if (runs === 1) throw conflict(code);
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(2);
    expect(await nameOf(id)).toBe('Conta+');
  });

  it(`gives up after ${CONFLICT_ATTEMPTS} runs with the conflict itself; any other failure is not rerun`, async () => {
    const { id } = await h.createAccount({ name: 'Outra' });
    let runs = 0;
    const always = transact(h.c.db, async (trx) => {
      runs += 1;
      await trx.updateTable('accounts').set({ name: sql`name || '+'` }).where('id', '=', id).execute();
      throw conflict('40P01');
    });
    await expect(always).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(CONFLICT_ATTEMPTS);
    expect(await nameOf(id)).toBe('Outra');

    let bugRuns = 0;
    await expect(
      transact(h.c.db, async () => {
        bugRuns += 1;
        throw new TypeError('a bug is not a conflict');
      }),
    ).rejects.toThrow(TypeError);
    expect(bugRuns).toBe(1);
  });
});

describe('a money command whose conflicts never end', () => {
  it('POST /dict/pix answers 503 with Retry-After after the reruns, moves nothing, and a retry with the same key then pays once', async () => {
    const a = await payer(h, 100);
    const key = randomUUID();
    const body = { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 10 } };
    // Every run of the command's transaction is aborted as PostgreSQL aborts a deadlock victim
    // (SQLSTATE 40P01), from inside the database; a sequence (never rolled back) counts the runs.
    await sql`CREATE SEQUENCE dict_runs`.execute(h.c.db);
    await sql`CREATE FUNCTION dict_deadlock() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM nextval('dict_runs');
        RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01';
      END $$`.execute(h.c.db);
    await sql`CREATE TRIGGER dict_deadlock BEFORE INSERT ON transactions FOR EACH STATEMENT EXECUTE FUNCTION dict_deadlock()`.execute(h.c.db);
    let res;
    let runs: number;
    try {
      res = await h.api('POST', '/dict/pix', a.token, body, { 'x-idempotency-key': key });
    } finally {
      await sql`DROP TRIGGER dict_deadlock ON transactions`.execute(h.c.db);
      runs = Number((await sql<{ n: string }>`SELECT last_value AS n FROM dict_runs`.execute(h.c.db)).rows[0]!.n);
    }
    expect(res.statusCode, res.body).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(runs).toBe(CONFLICT_ATTEMPTS);
    expect(await h.balance(a.id)).toEqual({ available: 100, blocked: 0 });
    const again = await h.api('POST', '/dict/pix', a.token, body, { 'x-idempotency-key': key });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
  });
});
