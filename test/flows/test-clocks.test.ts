import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TEST_START, type Harness } from '../harness.ts';
import { cashOutBody } from '../payouts/helpers.ts';
import { cpf } from '../factories.ts';
import { startReceiver } from '../webhooks/receiver.ts';

/**
 * Per-account test clocks (issue 29 item 3) through HTTP: the routes, and two accounts of which one is
 * on a clock advanced past 90 days: only its time rules move.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const FROZEN = '2027-01-04T15:00:00.000Z'; // 12:00 in São Paulo, a Monday
const DAY = 86_400_000;
const at = (ms: number) => new Date(Date.parse(FROZEN) + ms).toISOString();

async function create(body: unknown, token?: string) {
  return token ? h.api('POST', '/sandbox/test-clocks', token, body) : h.admin('POST', '/sandbox/test-clocks', body);
}

/** Advances and waits (by reading the clock, never by timing) until it is ready again. */
async function advanceTo(id: string, to: string, token?: string) {
  const res = token ? await h.api('POST', `/sandbox/test-clocks/${id}/advance`, token, { to }) : await h.admin('POST', `/sandbox/test-clocks/${id}/advance`, { to });
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json().status).toBe('advancing');
  await h.c.testClocks.settled();
  const after = await h.admin('GET', `/sandbox/test-clocks/${id}`);
  expect(after.json()).toMatchObject({ status: 'ready', frozenTime: to });
  return res.json();
}

const cashIn = (token: string, expirationTime: number) =>
  h.api(
    'POST',
    '/api/pix/cash-in',
    token,
    { transaction: { value: 10, description: 'pedido', externalId: `c-${Math.random().toString(36).slice(2)}`, expirationTime }, payer: { fullName: 'João Pagador', document: cpf(4242) } },
    { 'x-sandbox-scenario': 'pending' },
  );
const txStatus = async (transactionId: string) =>
  (await h.c.db.selectFrom('transactions').select(['status', 'error_code', 'created_at']).where('transaction_id', '=', transactionId).executeTakeFirstOrThrow());

describe('test clock routes', () => {
  it('creates, reads, lists and deletes a clock; an account is on one clock at most (409)', async () => {
    const a = await h.createAccount();
    const b = await h.createAccount();
    const made = await create({ frozenTime: FROZEN, accountIds: [a.id], name: 'trial' });
    expect(made.statusCode, made.body).toBe(201);
    const clock = made.json();
    expect(clock).toEqual({ id: expect.any(String), name: 'trial', frozenTime: FROZEN, status: 'ready', accountIds: [a.id] });
    expect((await h.admin('GET', `/sandbox/test-clocks/${clock.id}`)).json()).toEqual(clock);
    const twice = await create({ frozenTime: FROZEN, accountIds: [b.id, a.id] });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/accountIds/);
    // Nothing of the refused clock stays: b is free.
    const list = (await h.admin('GET', '/sandbox/test-clocks?pageSize=100')).json();
    expect(list.metadata).toMatchObject({ page: 1, pageSize: 100 });
    expect(list.data.filter((c: { accountIds: number[] }) => c.accountIds.includes(b.id))).toEqual([]);
    expect(list.data).toContainEqual(clock);
    expect((await h.admin('DELETE', `/sandbox/test-clocks/${clock.id}`)).statusCode).toBe(204);
    expect((await h.admin('GET', `/sandbox/test-clocks/${clock.id}`)).statusCode).toBe(404);
    // Back on the service clock, a is free for another clock.
    expect((await create({ frozenTime: FROZEN, accountIds: [a.id, b.id] })).statusCode).toBe(201);
  });

  it('an advance in progress refuses another (409); one left by a stopped process is taken over once its lease lapsed', async () => {
    const a = await h.createAccount();
    const clock = (await create({ frozenTime: FROZEN, accountIds: [a.id] })).json();
    // As a process that stopped mid-advance leaves it: advancing, its lease still running, then lapsed.
    await sql`UPDATE test_clocks SET status = 'advancing', advance_lease_until = clock_timestamp() + interval '1 hour' WHERE id = ${clock.id}::uuid`.execute(h.c.db);
    expect((await h.admin('GET', `/sandbox/test-clocks/${clock.id}`)).json().status).toBe('advancing');
    const busy = await h.admin('POST', `/sandbox/test-clocks/${clock.id}/advance`, { to: at(DAY) });
    expect(busy.statusCode).toBe(409);
    await sql`UPDATE test_clocks SET advance_lease_until = clock_timestamp() - interval '1 second' WHERE id = ${clock.id}::uuid`.execute(h.c.db);
    await advanceTo(clock.id, at(DAY));
  });

  it('two clocks asked at once for one account: one is made, the other is 409', async () => {
    const a = await h.createAccount();
    const answers = await Promise.all([create({ frozenTime: FROZEN, accountIds: [a.id] }), create({ frozenTime: at(DAY), accountIds: [a.id] })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const list = (await h.admin('GET', '/sandbox/test-clocks?pageSize=100')).json();
    expect(list.data.filter((c: { accountIds: number[] }) => c.accountIds.includes(a.id))).toHaveLength(1);
  });

  it('refuses bad input naming the field, a past or equal `to` (400), and unknown accounts (404)', async () => {
    const a = await h.createAccount();
    for (const [body, field] of [
      [{ accountIds: [a.id] }, 'frozenTime'],
      [{ frozenTime: 'yesterday', accountIds: [a.id] }, 'frozenTime'],
      [{ frozenTime: FROZEN }, 'accountIds'],
      [{ frozenTime: FROZEN, accountIds: [] }, 'accountIds'],
      [{ frozenTime: FROZEN, accountIds: ['x'] }, 'accountIds'],
      [{ frozenTime: FROZEN, accountIds: [a.id], name: '' }, 'name'],
    ] as const) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.json().message)).toContain(field);
    }
    expect((await create({ frozenTime: FROZEN, accountIds: [a.id, a.id] })).statusCode).toBe(400);
    expect((await create({ frozenTime: FROZEN, accountIds: [99_999_999] })).statusCode).toBe(404);
    const clock = (await create({ frozenTime: FROZEN, accountIds: [a.id] })).json();
    for (const to of [FROZEN, at(-1000)]) {
      const res = await h.admin('POST', `/sandbox/test-clocks/${clock.id}/advance`, { to });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json().message)).toMatch(/\bto\b/);
    }
    const noTo = await h.admin('POST', `/sandbox/test-clocks/${clock.id}/advance`, {});
    expect(noTo.statusCode).toBe(400);
    expect(JSON.stringify(noTo.json().message)).toMatch(/\bto\b/);
    expect((await h.admin('GET', '/sandbox/test-clocks/not-a-uuid')).statusCode).toBe(400);
    expect((await h.admin('GET', '/sandbox/test-clocks/7b2c8a52-53a1-4b43-9b5e-2d4c1f7c0a11')).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/sandbox/test-clocks/${clock.id}` })).statusCode).toBe(401);
  });

  it("an account's token acts on its own account's clocks only; another's clock is 404", async () => {
    const a = await h.createAccount();
    const b = await h.createAccount();
    const tokenA = await h.tokenFor(a.id);
    const tokenB = await h.tokenFor(b.id);
    expect((await create({ frozenTime: FROZEN, accountIds: [b.id] }, tokenA)).statusCode).toBe(404);
    const own = await create({ frozenTime: FROZEN, accountIds: [a.id] }, tokenA);
    expect(own.statusCode, own.body).toBe(201);
    const id = own.json().id as string;
    expect((await h.api('GET', `/sandbox/test-clocks/${id}`, tokenA)).statusCode).toBe(200);
    expect((await h.api('GET', `/sandbox/test-clocks/${id}`, tokenB)).statusCode).toBe(404);
    expect((await h.api('POST', `/sandbox/test-clocks/${id}/advance`, tokenB, { to: at(DAY) })).statusCode).toBe(404);
    expect((await h.api('DELETE', `/sandbox/test-clocks/${id}`, tokenB)).statusCode).toBe(404);
    const listB = (await h.api('GET', '/sandbox/test-clocks', tokenB)).json();
    expect(listB).toEqual({ data: [], metadata: { total: 0, page: 1, pageSize: 20, totalPages: 0 } });
    const listA = (await h.api('GET', '/sandbox/test-clocks', tokenA)).json();
    expect(listA.data.map((c: { id: string }) => c.id)).toEqual([id]);
    await advanceTo(id, at(DAY), tokenA);
    expect((await h.api('DELETE', `/sandbox/test-clocks/${id}`, tokenA)).statusCode).toBe(204);
  });
});

describe('two accounts, one on a clock advanced past 90 days', () => {
  it('moves only the time rules of the account on the clock', async () => {
    const a = await h.createAccount();
    const b = await h.createAccount();
    const tokenA = await h.tokenFor(a.id);
    const tokenB = await h.tokenFor(b.id);
    for (const account of [a, b]) await h.admin('PATCH', `/admin/accounts/${account.id}/limits`, { perTransaction: 1000, daily: 100 });
    const clock = (await create({ frozenTime: FROZEN, accountIds: [a.id] })).json();

    // The balance is consulted at the account's time.
    expect((await h.api('GET', '/api/balance', tokenA)).json().consultedAt).toBe(FROZEN);
    expect((await h.api('GET', '/api/balance', tokenB)).json().consultedAt).toBe(TEST_START.toISOString());
    // Each receives a PIX: a's is stamped with its clock's time, b's with the service's.
    const pixA = (await h.api('POST', '/sandbox/deposits', tokenA, { value: 500 })).json();
    const pixB = (await h.api('POST', '/sandbox/deposits', tokenB, { value: 500 })).json();
    expect((await txStatus(pixA.transactionId)).created_at.toISOString()).toBe(FROZEN);
    expect((await txStatus(pixB.transactionId)).created_at.toISOString()).toBe(TEST_START.toISOString());
    const eventA = await h.c.db.selectFrom('events').select('created_at').where('account_id', '=', a.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(eventA.created_at.toISOString()).toBe(FROZEN);

    // A pending charge each, due to expire in an hour of its account's time.
    const chargeA = (await cashIn(tokenA, 3600)).json();
    const chargeB = (await cashIn(tokenB, 3600)).json();
    expect(chargeA.expirationDate).toBe(at(3600_000));
    // A MED against each PIX.
    const medA = await h.api('POST', '/sandbox/med', tokenA, { endToEndId: pixA.endToEndId, amount: 1 });
    expect(medA.statusCode, medA.body).toBe(201);
    expect(medA.json().createdAt).toBe(FROZEN);
    const medB = await h.api('POST', '/sandbox/med', tokenB, { endToEndId: pixB.endToEndId, amount: 1 });
    expect(medB.json().createdAt).toBe(TEST_START.toISOString());

    // Daily limit 100: 80 today for each.
    const payoutA = await h.api('POST', '/api/pix/cash-out', tokenA, cashOutBody({ value: 80 }));
    expect(payoutA.statusCode).toBe(201);
    const payoutB = await h.api('POST', '/api/pix/cash-out', tokenB, cashOutBody({ value: 80 }));
    expect(payoutB.statusCode).toBe(201);
    expect((await txStatus(payoutA.json().transactionId)).created_at.toISOString()).toBe(FROZEN);
    expect((await h.api('POST', '/api/pix/cash-out', tokenA, cashOutBody({ value: 80 }))).json().code).toBe('PIX_DAILY_LIMIT_EXCEEDED');

    await advanceTo(clock.id, at(90 * DAY));

    // a: 90 days later its refund window has closed; b's is open.
    const refundA = await h.api('POST', `/api/pix/refund-in/${pixA.transactionId}`, tokenA, { refundValue: 1 });
    expect(refundA.statusCode).toBe(400);
    expect(refundA.json().code).toBe('PIX_REFUND_DEADLINE_EXCEEDED');
    expect((await h.api('POST', `/api/pix/refund-in/${pixB.transactionId}`, tokenB, { refundValue: 1 })).statusCode).toBe(201);
    // Only a's charge expired.
    expect(await txStatus(chargeA.transactionId)).toMatchObject({ status: 'ERROR', error_code: 'CHARGE_EXPIRED' });
    expect(await txStatus(chargeB.transactionId)).toMatchObject({ status: 'PENDING' });
    // a is on a new day: its daily limit starts again; b's day (the service clock's) is the same.
    expect((await h.api('POST', '/api/pix/cash-out', tokenA, cashOutBody({ value: 80 }))).statusCode).toBe(201);
    expect((await h.api('POST', '/api/pix/cash-out', tokenB, cashOutBody({ value: 80 }))).json().code).toBe('PIX_DAILY_LIMIT_EXCEEDED');
    // a's payout ran on its clock: settled once its clock passed the settlement delay; b's waits
    // for the service clock, which did not move.
    expect(await txStatus(payoutA.json().transactionId)).toMatchObject({ status: 'CONFIRMED' });
    expect(await txStatus(payoutB.json().transactionId)).toMatchObject({ status: 'PENDING' });
    expect(h.c.clock.now().toISOString()).toBe(TEST_START.toISOString());

    // Deleted: a is back on the service clock.
    expect((await h.admin('DELETE', `/sandbox/test-clocks/${clock.id}`)).statusCode).toBe(204);
    const later = (await h.api('POST', '/sandbox/deposits', tokenA, { value: 1 })).json();
    expect((await txStatus(later.transactionId)).created_at.toISOString()).toBe(TEST_START.toISOString());
  });

  it('the shared POST /sandbox/clock/advance still moves the service clock, not a test clock', async () => {
    const a = await h.createAccount();
    const clock = (await create({ frozenTime: FROZEN, accountIds: [a.id] })).json();
    const res = await h.admin('POST', '/sandbox/clock/advance', { seconds: 60 });
    expect(res.statusCode).toBe(200);
    expect(res.json().now).toBe(new Date(TEST_START.getTime() + 60_000).toISOString());
    expect((await h.admin('GET', `/sandbox/test-clocks/${clock.id}`)).json().frozenTime).toBe(FROZEN);
  });
});

describe('webhook retries on a test clock', () => {
  it("retries an account's failed deliveries at its clock's times; another account's wait for the service clock", async () => {
    const rx = await startReceiver();
    try {
      const a = await h.createAccount();
      const b = await h.createAccount();
      // Both receivers fail twice, then take the event.
      for (const path of ['/a', '/b']) rx.on(path, (_req, nth) => ({ status: nth <= 2 ? 500 : 200 }));
      expect((await h.admin('POST', `/admin/accounts/${a.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/a') })).statusCode).toBe(201);
      expect((await h.admin('POST', `/admin/accounts/${b.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/b') })).statusCode).toBe(201);
      const clock = (await create({ frozenTime: FROZEN, accountIds: [a.id] })).json();
      await h.admin('POST', '/sandbox/deposits', { accountId: a.id, value: 5 });
      await h.admin('POST', '/sandbox/deposits', { accountId: b.id, value: 5 });
      await h.deliverWebhooks();
      const deliveryOf = (accountId: number) =>
        h.c.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').executeTakeFirstOrThrow();
      const firstA = await deliveryOf(a.id);
      expect(firstA).toMatchObject({ status: 'pending', attempts: 1 });
      // The retry is about 5 s later on a's clock (10% jitter either way).
      const wait = firstA.next_attempt_at.getTime() - Date.parse(FROZEN);
      expect(wait).toBeGreaterThanOrEqual(4_500);
      expect(wait).toBeLessThanOrEqual(5_500);
      // Nothing more happens while the clock stands.
      await h.deliverWebhooks();
      expect((await deliveryOf(a.id)).attempts).toBe(1);
      // An hour later on a's clock: the retries at +5 s and +5 min ran in order; the third attempt took it.
      await advanceTo(clock.id, at(3600_000));
      expect(await deliveryOf(a.id)).toMatchObject({ status: 'delivered', attempts: 3 });
      const logs = await h.c.db.selectFrom('webhook_logs').select(['attempt', 'created_at', 'status_code']).where('url', '=', rx.url('/a')).orderBy('id').execute();
      expect(logs.map((l) => [l.attempt, l.status_code])).toEqual([[1, 500], [2, 500], [3, 200]]);
      expect(logs[0]!.created_at.toISOString()).toBe(FROZEN);
      expect(logs[1]!.created_at.getTime() - Date.parse(FROZEN)).toBe(wait);
      // b is on the service clock, which did not move: one attempt, its retry waiting.
      expect(await deliveryOf(b.id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect(rx.to('/b')).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });
});

describe('more time rules on a test clock', () => {
  it('/cob expiry and its calendario.criacao follow the clock; another account\'s cob stays ATIVA', async () => {
    const a = await h.createAccount();
    const b = await h.createAccount();
    const tokenA = await h.tokenFor(a.id);
    const tokenB = await h.tokenFor(b.id);
    const clock = (await create({ frozenTime: FROZEN, accountIds: [a.id] })).json();
    const cob = (pixKey: string) => ({ calendario: { expiracao: 3600 }, devedor: { cpf: cpf(555), nome: 'Fulano de Tal' }, valor: { original: '12.34' }, chave: pixKey });
    const txid = (s: string) => `clock${s}${Math.random().toString(36).slice(2, 12)}`.padEnd(30, '0').slice(0, 30);
    const [txA, txB] = [txid('a'), txid('b')];
    const putA = await h.api('PUT', `/cob/${txA}`, tokenA, cob(a.pixKey));
    expect(putA.statusCode, putA.body).toBe(201);
    expect(putA.json().calendario.criacao).toBe(FROZEN);
    expect((await h.api('PUT', `/cob/${txB}`, tokenB, cob(b.pixKey))).statusCode).toBe(201);
    await advanceTo(clock.id, at(3601_000));
    expect((await h.api('GET', `/cob/${txA}`, tokenA)).json().status).toBe('REMOVIDA_PELO_PSP');
    expect((await h.api('GET', `/cob/${txB}`, tokenB)).json().status).toBe('ATIVA');
  });

  it('the night limit follows the clock: 22:00 in São Paulo on the clock, noon on the service clock', async () => {
    const a = await h.createAccount({ funds: 500 });
    const b = await h.createAccount({ funds: 500 });
    const tokenA = await h.tokenFor(a.id);
    const tokenB = await h.tokenFor(b.id);
    for (const account of [a, b]) await h.admin('PATCH', `/admin/accounts/${account.id}/limits`, { nightly: 50 });
    await create({ frozenTime: '2027-01-05T01:00:00.000Z', accountIds: [a.id] }); // 22:00 in São Paulo
    const nightA = await h.api('POST', '/api/pix/cash-out', tokenA, cashOutBody({ value: 60 }));
    expect(nightA.json()).toMatchObject({ code: 'PIX_NIGHT_LIMIT_EXCEEDED' });
    expect((await h.api('POST', '/api/pix/cash-out', tokenB, cashOutBody({ value: 60 }))).statusCode).toBe(201);
    expect((await h.api('POST', '/api/pix/cash-out', tokenA, cashOutBody({ value: 50 }))).statusCode).toBe(201);
  });
});

describe('scheduled splits on a test clock', () => {
  it("pays a charge's daily split at 00:00 in São Paulo on the clock, not on the service clock", async () => {
    const a = await h.createAccount();
    const tokenA = await h.tokenFor(a.id);
    const clock = (await create({ frozenTime: FROZEN, accountIds: [a.id] })).json();
    const split = { pixKey: 'recebedor@loja.example', pixKeyType: 'EMAIL', name: 'Recebedor', document: cpf(901), type: 'FIXED', value: 5 };
    const charge = await h.api(
      'POST',
      '/api/pix/cash-in',
      tokenA,
      { transaction: { value: 50, description: 'Venda', externalId: 'split-clock-1' }, payer: { fullName: 'Cliente', document: cpf(1) }, splits: [split] },
      { 'x-sandbox-scenario': 'pending' },
    );
    expect(charge.statusCode, charge.body).toBe(201);
    expect((await h.api('POST', `/sandbox/charges/${charge.json().transactionId}/pay`, tokenA, {})).statusCode).toBe(200);
    const splitsOf = async () => {
      const parent = await h.c.db.selectFrom('transactions').select('id').where('transaction_id', '=', charge.json().transactionId).executeTakeFirstOrThrow();
      return h.c.db.selectFrom('transactions').selectAll().where('parent_id', '=', parent.id).where('origin', '=', 'split').execute();
    };
    // The service clock's own midnight (2026-11-21T03:00Z) comes and goes: nothing, the clock stands at 2027.
    await h.advance(13 * 3600);
    expect(await splitsOf()).toEqual([]);
    // On the clock: 2027-01-05T03:00Z is the next midnight in São Paulo.
    await advanceTo(clock.id, '2027-01-05T02:59:59.000Z');
    expect(await splitsOf()).toEqual([]);
    await advanceTo(clock.id, '2027-01-05T03:00:05.000Z');
    const [payout] = await splitsOf();
    expect(payout).toMatchObject({ original_amount: 500, status: 'CONFIRMED' });
    expect(payout!.created_at.toISOString()).toBe('2027-01-05T03:00:00.000Z');
  });
});
