import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('a payout batch that fails is never re-run silently', () => {
  it('logs why the batch failed, then runs each payout alone (each answers for itself)', async () => {
    const a = await payer(h, 100);
    // The batch's statement fails once (a fault inside the database), the payout alone then succeeds.
    await sql`CREATE SEQUENCE batch_fault`.execute(h.c.db);
    await sql`CREATE FUNCTION batch_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('batch_fault') = 1 THEN RAISE EXCEPTION 'batch insert exploded'; END IF;
        RETURN NULL;
      END $$`.execute(h.c.db);
    await sql`CREATE TRIGGER batch_fault AFTER INSERT ON transactions FOR EACH STATEMENT EXECUTE FUNCTION batch_fault()`.execute(h.c.db);
    try {
      const res = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await sql`DROP TRIGGER batch_fault ON transactions`.execute(h.c.db);
    }
    const logged = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'payout batch failed; running its payouts one by one');
    expect(logged).toMatchObject({ level: 40, items: 1, err: { message: expect.stringContaining('batch insert exploded') } });
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
  });
});
