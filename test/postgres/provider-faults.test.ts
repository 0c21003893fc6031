import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { asAdmin, call, customerOfA, expectBooksAgree, startWorld, waitFor, type World } from './provider-kit.ts';

/**
 * Issue 13's fault tests, on the two-instance set-up of provider-end-to-end.test.ts (B plays the
 * provider, A in production mode reaches it through the adapter), with reconciliation after 2 s:
 * B's notices lost, B stopped while payouts are made, and A killed between B taking a payment and
 * A recording it. Each payment ends once at A and is paid once at B; the books agree after each.
 */
let w: World;
let customer: Awaited<ReturnType<typeof customerOfA>>;
let holds = 0;
let chargeId = '';
const KEY = { key: 'fornecedor@faltas.example', keyType: 'EMAIL', name: 'Fornecedor', document: cpf(8811) };

beforeAll(async () => {
  w = await startWorld({ reconcileAfterS: '2' });
  customer = await customerOfA(w, 2);
  const key = await call(w.b.url, 'POST', '/sandbox/dict/keys', { ...KEY, ispb: '60746948' }, asAdmin);
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  // Funds: a charge of R$ 200.00 paid at B, its notice delivered.
  const charge = await customer.api('POST', '/api/pix/cash-in', { transaction: { value: 200, description: 'Saldo inicial', externalId: 'saldo-1' }, payer: { fullName: 'Pagador', document: cpf(9911) } });
  expect(charge.status, JSON.stringify(charge.body)).toBe(201);
  chargeId = charge.body.transactionId;
  await statusAtA(chargeId, 'CONFIRMED');
  holds = 20_000;
}, 180_000);
afterAll(() => w?.close(), 60_000);

async function statusAtA(id: string, status: string, withinMs = 60_000) {
  return waitFor(`${id} ${status} at A`, async () => {
    const t = await customer.api('GET', `/api/pix/transaction/${id}`);
    return t.body.status === status && t.body;
  }, withinMs);
}
const payout = (value: number, externalId: string) => customer.api('POST', '/api/pix/cash-out', { value, externalId, details: KEY });
/** How many transactions B holds for each of our references (a payment paid twice would show 2). */
async function paidAtB(references: string[]) {
  const rows = await w.dbB.query<{ external_id: string; n: number }>('SELECT external_id, count(*)::int AS n FROM transactions WHERE external_id = ANY($1) GROUP BY external_id', [references]);
  return Object.fromEntries(rows.rows.map((r) => [r.external_id, r.n]));
}

describe('provider faults', { timeout: 150_000 }, () => {
  it("B's notices lost on the way: reconciliation completes the charge, the payout and the refund", async () => {
    const noticesBefore = (await w.dbA.query('SELECT count(*)::int AS n FROM provider_notices')).rows[0].n;
    w.gate.mode = 'drop';
    try {
      const charge = await customer.api('POST', '/api/pix/cash-in', { transaction: { value: 40, description: 'Pedido perdido', externalId: 'perdido-1' }, payer: { fullName: 'Pagador', document: cpf(9912) } });
      expect(charge.status).toBe(201);
      const out = await payout(15, 'perdido-2');
      expect(out.status).toBe(201);
      const refund = await customer.api('POST', `/api/pix/refund-in/${chargeId}`, { refundValue: 5 });
      expect(refund.status).toBe(201);
      await statusAtA(charge.body.transactionId, 'CONFIRMED');
      await statusAtA(out.body.transactionId, 'CONFIRMED');
      await statusAtA(refund.body.transactionId, 'CONFIRMED');
      expect(w.gate.dropped).toBeGreaterThanOrEqual(3);
      // Not one notice reached A: reconciliation did it all.
      expect((await w.dbA.query('SELECT count(*)::int AS n FROM provider_notices')).rows[0].n).toBe(noticesBefore);
      holds += 4_000 - 1_500 - 500;
      await expectBooksAgree(w, { customers: holds });
      const status = await call(w.a.url, 'GET', '/admin/network/status', undefined, asAdmin);
      expect(status.body.provider.lastReconciliation).toMatchObject({ at: expect.any(String) });
      expect(status.body.provider.lastReconciliation.finishedTotal).toBeGreaterThanOrEqual(3);
      expect(status.body.provider.chargesAwaitingOutcome).toBe(0);
    } finally {
      w.gate.mode = 'pass';
    }
  });

  it('B stopped during payouts: they stay PENDING (never a 500), then complete once B is back, each paid once at B', async () => {
    await w.b.stop();
    const outs = [];
    for (let i = 1; i <= 3; i++) {
      const res = await payout(1, `parado-${i}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.status).toBe('PENDING');
      outs.push(res.body.transactionId as string);
    }
    // A charge needs the provider now: 500 PROVIDER_UNAVAILABLE, nothing stored.
    const charge = await customer.api('POST', '/api/pix/cash-in', { transaction: { value: 5, description: 'Sem provedor', externalId: 'parado-cobranca' }, payer: { fullName: 'Pagador', document: cpf(9913) } });
    expect(charge.status).toBe(500);
    expect(charge.body.code).toBe('PROVIDER_UNAVAILABLE');
    expect((await w.dbA.query("SELECT id FROM transactions WHERE external_id = 'parado-cobranca'")).rows).toEqual([]);
    const down = await waitFor('the circuit to open', async () => {
      const s = await call(w.a.url, 'GET', '/admin/network/status', undefined, asAdmin);
      return s.body.provider.circuit.state === 'open' && s.body;
    });
    expect(down.payoutsAwaitingOutcome.count).toBe(3);
    for (const id of outs) expect((await customer.api('GET', `/api/pix/transaction/${id}`)).body.status).toBe('PENDING');
    const balance = await customer.api('GET', '/api/balance');
    expect(balance.body.blockedBalance).toBe(3);

    await w.startB();
    for (const id of outs) await statusAtA(id, 'CONFIRMED', 90_000);
    expect(await paidAtB(outs)).toEqual(Object.fromEntries(outs.map((id) => [id, 1])));
    holds -= 300;
    await expectBooksAgree(w, { customers: holds });
    const status = await call(w.a.url, 'GET', '/admin/network/status', undefined, asAdmin);
    expect(status.body.provider.circuit.state).toBe('closed');
    expect(status.body.payoutsAwaitingOutcome.count).toBe(0);
  });

  it('A killed after B took a payout and before A recorded it: A submits it again on restart, and B pays it once', async () => {
    w.upstream.killAOnCashOut = true;
    const exited = new Promise((resolve) => w.a.process.once('exit', resolve));
    // The answer may or may not reach us before A dies: the payout is found by its externalId.
    await payout(3, 'morto-1').catch(() => undefined);
    await exited;
    const row = await w.dbA.query("SELECT transaction_id, status FROM transactions WHERE external_id = 'morto-1'");
    expect(row.rows).toHaveLength(1);
    const reference = row.rows[0].transaction_id as string;
    expect(row.rows[0].status).toBe('PENDING');
    expect(await paidAtB([reference])).toEqual({ [reference]: 1 });
    // Its submit step is still claimed by the dead worker (the answer was never recorded).
    const claimed = await w.dbA.query("SELECT id FROM jobs WHERE kind = 'payment.submit' AND payload->'order'->>'reference' = $1 AND lease_until IS NOT NULL", [reference]);
    expect(claimed.rows).toHaveLength(1);

    await w.startA();
    // The dead worker's lease (60 s) lapses: here, at once.
    await w.dbA.query("UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = $1", [claimed.rows[0].id]);
    await customer.login();
    await statusAtA(reference, 'CONFIRMED', 90_000);
    const submissions = () => w.upstream.requests.filter((r) => r.method === 'POST' && r.url === '/api/pix/cash-out' && JSON.parse(r.body).externalId === reference);
    await waitFor('the submission again after the restart', async () => submissions().length >= 2);
    // The second submission was answered "already have it" (400 PIX_DUPLICATE_EXTERNAL_ID): nothing paid twice.
    expect(submissions().map((r) => r.status)).toEqual([201, 400]);
    expect(await paidAtB([reference])).toEqual({ [reference]: 1 });
    await waitFor('the submit step recorded', async () => (await w.dbA.query("SELECT id FROM jobs WHERE kind = 'payment.submit'")).rows.length === 0);
    holds -= 300;
    await expectBooksAgree(w, { customers: holds });
  });
});
