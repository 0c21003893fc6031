import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('payouts under concurrency (PostgreSQL)', () => {
  it('20 parallel cash-outs over a balance that covers 7 accept exactly 7', async () => {
    const a = await payer(h, 70);
    const results = await Promise.all(Array.from({ length: 20 }, () => h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }))));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(7);
    expect(results.filter((r) => r.statusCode === 400).map((r) => r.json().code)).toEqual(Array(13).fill('PIX_INSUFFICIENT_BALANCE'));
    expect(await h.balance(a.id)).toEqual({ available: 0, blocked: 70 });
    await h.advance(1);
    expect(await h.balance(a.id)).toEqual({ available: 0, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('the same externalId sent 10 times at once creates one transaction', async () => {
    const a = await payer(h, 1000);
    const body = cashOutBody({ value: 10 });
    const results = await Promise.all(Array.from({ length: 10 }, () => h.api('POST', '/api/pix/cash-out', a.token, body)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const created = results.find((r) => r.statusCode === 201)!.json().transactionId;
    for (const r of results.filter((r) => r.statusCode !== 201)) {
      expect(r.json()).toMatchObject({ code: 'PIX_DUPLICATE_EXTERNAL_ID', details: { existingTransactionId: created } });
    }
    const rows = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', a.id).where('external_id', '=', body.externalId).execute();
    expect(rows).toHaveLength(1);
    expect(await h.balance(a.id)).toEqual({ available: 990, blocked: 10 });
  });

  it('the same idempotency key sent concurrently moves money once', async () => {
    const a = await payer(h, 1000);
    const key = randomUUID();
    const body = { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 10 } };
    const results = await Promise.all(Array.from({ length: 10 }, () => h.api('POST', '/dict/pix', a.token, body, { 'x-idempotency-key': key })));
    const created = results.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    expect(await h.balance(a.id)).toEqual({ available: 990, blocked: 10 });
    const n = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', a.id).where('origin', '=', 'dict').execute();
    expect(n).toHaveLength(1);
  });

  it('daily limit stays exact under concurrency', async () => {
    const a = await payer(h, 5000);
    await h.admin('PATCH', `/admin/accounts/${a.id}/limits`, { daily: 100 });
    const results = await Promise.all(Array.from({ length: 20 }, () => h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }))));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    // The other ten are refused for the limit (not merely 'not 201': a 500 must fail here).
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, r.json().code])).toEqual(Array.from({ length: 10 }, () => [400, 'PIX_DAILY_LIMIT_EXCEEDED']));
  });
});
