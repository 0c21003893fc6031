import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TEST_START, type Harness } from '../harness.ts';
import { cashOutBody } from '../payouts/helpers.ts';
import { cpf } from '../factories.ts';

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
