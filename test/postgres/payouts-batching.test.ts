import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import { DomainError } from '../../src/domain/errors/domain-error.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { PayoutRequest } from '../../src/services/payouts/outgoing-payout.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';
import { isDatabaseUnavailable } from '../../src/db/db-faults.ts';
import { DEFAULT_DB_TIMEOUTS } from '../../src/db/pg-pool.ts';
import { schemaOf, sideConnection } from './pg-tools.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
/** The group commit's counts as /metrics publishes them (payout_group_commit{count=...}). */
async function groupCommit(): Promise<Record<'batches' | 'items' | 'retries' | 'fallbacks' | 'busy', number>> {
  const res = await h.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  const read = (count: string) => {
    const line = new RegExp(`^payout_group_commit\\{count="${count}"\\} (\\d+)$`, 'm').exec(res.body);
    expect(line, `payout_group_commit{count="${count}"} in /metrics`).not.toBeNull();
    return Number(line![1]);
  };
  return { batches: read('batches'), items: read('items'), retries: read('retries'), fallbacks: read('fallbacks'), busy: read('busy') };
}
// Every payout here must go through the batch path itself, never its item-by-item fallback.
afterEach(async () => expect((await groupCommit()).fallbacks).toBe(0));

let seq = 0;
/** A network cash-out as the route builds it; submitted in one tick, these land in ONE batch. */
function request(accountId: number, cents: number, externalId = `batch-${Date.now()}-${++seq}`): PayoutRequest {
  return {
    accountId,
    origin: 'cash_out',
    family: 'api',
    externalId,
    amount: cents as Cents,
    description: null,
    pixKey: 'destino@example.com',
    counterpart: { name: 'Fulano', document: cpf(77), bank: { bankISPB: '00000000', bankName: 'Banco', bankCode: '001', accountBranch: '0001', accountNumber: '1-0' } },
    scenario: null,
    destination: { kind: 'network', target: { payee: { by: 'key', key: { type: 'EMAIL', normalized: 'destino@example.com' }, document: cpf(77), holderDocument: null, ispb: null } } },
    codes: { duplicate: 'PIX_DUPLICATE_EXTERNAL_ID', insufficient: 'PIX_INSUFFICIENT_BALANCE' },
  };
}

const settle = (promises: Array<Promise<unknown>>) =>
  Promise.all(promises.map((p) => p.then((tx) => ({ ok: true as const, tx: tx as { transaction_id: string } }), (e) => ({ ok: false as const, code: (e as DomainError).code }))));

async function stored(accountId: number) {
  return h.c.db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('kind', '=', 'WITHDRAW').execute();
}

describe('payout group commit (PostgreSQL)', () => {
  it('a batch of good and failing payouts: each answers for itself, the good ones commit together', async () => {
    const a = await payer(h, 100); // R$ 100.00
    await h.admin('PATCH', `/admin/accounts/${a.id}/limits`, { perTransaction: 50, daily: 90 });
    const earlier = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
    expect(earlier.statusCode).toBe(201);
    const usedExternalId = JSON.parse(earlier.body).externalId as string;
    const create = h.c.payouts.payouts.create;
    const before = await groupCommit();
    // All submitted in the same tick: one batch. Day limit R$ 90, R$ 10 already used.
    const results = await settle([
      create(request(a.id, 2_000)), // ok (30 used)
      create(request(a.id, 6_000)), // per-transaction limit (50)
      create(request(a.id, 500, usedExternalId)), // duplicate of a committed payout
      create(request(a.id, 4_000)), // ok (70 used)
      create(request(a.id, 3_000)), // daily limit (would be 100)
      create(request(a.id, 2_000)), // ok (90 used)
      create(request(999_999_999, 100)), // unknown account
      create(request(a.id, 1)), // daily limit (90 used)
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : r.code))).toEqual([
      'ok',
      'PIX_TRANSACTION_LIMIT_EXCEEDED',
      'PIX_DUPLICATE_EXTERNAL_ID',
      'ok',
      'PIX_DAILY_LIMIT_EXCEEDED',
      'ok',
      'NOT_FOUND',
      'PIX_DAILY_LIMIT_EXCEEDED',
    ]);
    // The eight payouts, good and failing, were admitted in ONE transaction.
    const after = await groupCommit();
    expect({ batches: after.batches - before.batches, items: after.items - before.items }).toEqual({ batches: 1, items: 8 });
    expect(await h.balance(a.id)).toEqual({ available: 10, blocked: 90 });
    const rows = await stored(a.id);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.status === 'PENDING')).toBe(true);
    // Every created payout has its submit step, in the same commit.
    const jobs = await h.c.db.selectFrom('jobs').select('payload').where('kind', '=', 'payment.submit').execute();
    const scheduled = new Set(jobs.map((j) => (j.payload as { id: number }).id));
    for (const r of rows) expect(scheduled.has(r.id)).toBe(true);
    const usage = await h.c.db.selectFrom('payout_limit_usage').select(['window_key', 'total']).where('account_id', '=', a.id).execute();
    expect(usage.find((u) => u.window_key.startsWith('day:'))!.total).toBe(9_000);
    await h.advance(1);
    expect(await h.balance(a.id)).toEqual({ available: 10, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('an over-subscribed hot account: 60 concurrent payouts over a balance that covers 20 accept exactly 20', async () => {
    const a = await payer(h, 100);
    const http = Array.from({ length: 30 }, () => h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 5 })));
    const direct = Array.from({ length: 30 }, () => h.c.payouts.payouts.create(request(a.id, 500)));
    const [viaHttp, viaService] = await Promise.all([Promise.all(http), settle(direct)]);
    const accepted = viaHttp.filter((r) => r.statusCode === 201).length + viaService.filter((r) => r.ok).length;
    expect(accepted).toBe(20);
    for (const r of viaHttp.filter((r) => r.statusCode !== 201)) expect(r.json().code).toBe('PIX_INSUFFICIENT_BALANCE');
    for (const r of viaService) if (!r.ok) expect(r.code).toBe('PIX_INSUFFICIENT_BALANCE');
    expect(await h.balance(a.id)).toEqual({ available: 0, blocked: 100 });
    expect(await stored(a.id)).toHaveLength(20);
    await h.advance(1);
    expect(await h.balance(a.id)).toEqual({ available: 0, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('the same externalId in one batch creates one payout; the others name it', async () => {
    const a = await payer(h, 1000);
    const results = await settle(Array.from({ length: 10 }, () => h.c.payouts.payouts.create(request(a.id, 1_000, 'same-in-one-batch'))));
    const created = results.filter((r) => r.ok);
    expect(created).toHaveLength(1);
    const id = (created[0] as { tx: { transaction_id: string } }).tx.transaction_id;
    const rejected = await Promise.all(
      Array.from({ length: 3 }, () => h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10, externalId: 'same-in-one-batch' }))),
    );
    for (const r of rejected) expect(r.json()).toMatchObject({ code: 'PIX_DUPLICATE_EXTERNAL_ID', details: { existingTransactionId: id } });
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === 'PIX_DUPLICATE_EXTERNAL_ID')).toBe(true);
    expect(await stored(a.id)).toHaveLength(1);
    expect(await h.balance(a.id)).toEqual({ available: 990, blocked: 10 });
  });

  it('an account whose row another session holds: its payout leaves the batch at once and waits alone; the others commit without waiting for that lock (issue 20)', async () => {
    const locked = await payer(h, 100);
    const free = [await payer(h, 100), await payer(h, 100)];
    // Each has paid before: its limit counters for today exist.
    for (const p of [locked, ...free]) expect((await h.api('POST', '/api/pix/cash-out', p.token, cashOutBody({ value: 1 }))).statusCode).toBe(201);
    const side = await sideConnection(await schemaOf(h));
    await side.query('BEGIN');
    await side.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [locked.id]);
    try {
      const before = await groupCommit();
      const started = performance.now();
      const answer = (p: Promise<unknown>) => p.then((tx) => ({ ok: true as const, tx, ms: performance.now() - started }), (error: unknown) => ({ ok: false as const, error, ms: performance.now() - started }));
      // One tick: one batch of three accounts.
      const [held, ...others] = (await Promise.all([locked, ...free].map((p) => answer(h.c.payouts.payouts.create(request(p.id, 1_000)))))) as [Awaited<ReturnType<typeof answer>>, ...Array<Awaited<ReturnType<typeof answer>>>];
      const after = await groupCommit();
      expect({ batches: after.batches - before.batches, items: after.items - before.items, busy: after.busy - before.busy }).toEqual({ batches: 1, items: 3, busy: 1 });
      // The others waited at most the batch's short wait for the held account (a quarter of the lock
      // timeout, at most 250 ms), never the lock timeout (3 s) they used to wait; 2 s is the
      // issue's bound for the other accounts, loose for a loaded machine.
      for (const o of others) {
        expect(o.ok).toBe(true);
        expect(o.ms).toBeLessThan(2_000);
      }
      // The held account's payout waited for the lock once, alone, and gave up: 503 (55P03).
      expect(held.ok).toBe(false);
      expect(isDatabaseUnavailable((held as { error: unknown }).error)).toBe(true);
      expect((held as { error: { code?: string } }).error.code).toBe('55P03');
      expect(held.ms).toBeGreaterThan(DEFAULT_DB_TIMEOUTS.lockMs - 500);
    } finally {
      await side.query('ROLLBACK');
      await side.end();
    }
    expect(await stored(locked.id)).toHaveLength(1);
    expect(await h.balance(locked.id)).toEqual({ available: 99, blocked: 1 });
    // Free again: its payouts go alone for a moment, then back into batches; both commit.
    const again = await settle([h.c.payouts.payouts.create(request(locked.id, 1_000))]);
    expect(again[0]!.ok).toBe(true);
    await h.advance(1);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('many accounts at once: every payout held, each account limited and funded on its own', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => payer(h, 30)));
    const before = await groupCommit();
    const results = await settle(accounts.flatMap((a) => Array.from({ length: 5 }, () => h.c.payouts.payouts.create(request(a.id, 1_000)))));
    expect(results.filter((r) => r.ok)).toHaveLength(18); // 3 of R$ 10 per account of R$ 30
    // Thirty payouts of six accounts submitted in one tick: one batch.
    const after = await groupCommit();
    expect({ batches: after.batches - before.batches, items: after.items - before.items }).toEqual({ batches: 1, items: 30 });
    for (const a of accounts) expect(await h.balance(a.id)).toEqual({ available: 0, blocked: 30 });
    await h.advance(1);
    for (const a of accounts) expect(await h.balance(a.id)).toEqual({ available: 0, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
