import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { payer } from '../payouts/helpers.ts';
import { schemaOf, sideConnection, waitForWaiters } from './pg-tools.ts';

let h: Harness;
let schema: string;
beforeAll(async () => {
  h = await startHarness();
  schema = await schemaOf(h);
});
afterAll(() => h.close());

const transfer = { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 10 } };

describe('idempotency: liveness, not age, decides (PostgreSQL)', () => {
  it('a retry of a POST /dict/pix still running after the old 60 s takeover never pays twice', async () => {
    const a = await payer(h, 100);
    const key = randomUUID();
    const locker = await sideConnection(schema);
    const observer = await sideConnection(schema);
    try {
      // A slow lock stalls the first request inside its transaction.
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [a.id]);
      const first = h.api('POST', '/dict/pix', a.token, transfer, { 'x-idempotency-key': key });
      expect(await waitForWaiters(observer, locker.pid, 1)).toBe(1);
      // Past the old takeover window by age (the clock is the service's): the first is alive.
      h.clock.advance(61);
      const retry = h.api('POST', '/dict/pix', a.token, transfer, { 'x-idempotency-key': key });
      // The retry waits too (or answers at once); give it the chance to block before releasing.
      await waitForWaiters(observer, locker.pid, 2, 2_000);
      await locker.query('ROLLBACK');
      const answers = await Promise.all([first, retry]);
      // Whichever got the lock first paid; the other one replays its committed answer (or, had it
      // come back while the first still ran, 409). Never two payments.
      for (const r of answers) expect([201, 409], r.body).toContain(r.statusCode);
      const created = answers.filter((r) => r.statusCode === 201);
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
      expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
      const rows = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', a.id).where('origin', '=', 'dict').execute();
      expect(rows).toHaveLength(1);
      expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
      expect(await findLedgerDrift(h.c.db)).toEqual([]);
    } finally {
      await locker.end();
      await observer.end();
    }
  });

  it('a first request that failed leaves no reservation behind: the retry runs at once', async () => {
    const a = await payer(h, 5);
    const key = randomUUID();
    const poor = await h.api('POST', '/dict/pix', a.token, transfer, { 'x-idempotency-key': key });
    expect(poor.statusCode).toBe(422);
    await h.deposit(a.id, 20);
    const retry = await h.api('POST', '/dict/pix', a.token, transfer, { 'x-idempotency-key': key });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await h.balance(a.id)).toEqual({ available: 15, blocked: 10 });
  });
});
