import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cpf } from '../factories.ts';
import { payer } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const post = (token: string, body: unknown, key: string | null = randomUUID(), headers: Record<string, string> = {}) =>
  h.api('POST', '/dict/pix', token, body, { ...(key ? { 'x-idempotency-key': key } : {}), ...headers });
const transfer = (amount: number, extra: Record<string, unknown> = {}) => ({ pixKey: 'destino@example.com', payment: { currency: 'BRL', amount }, ...extra });

describe('POST /dict/pix', () => {
  it('201 PENDING with the idempotency key as provisional endToEndId, then COMPLETED and a TRANSFER event to cash_out', async () => {
    const a = await payer(h, 100);
    const key = randomUUID();
    const res = await post(a.token, transfer(12.5, { description: 'aluguel', paymentFlow: 'rent' }), key);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ endToEndId: key, eventDate: '2026-11-20T15:00:00.000Z', id: expect.any(Number), payment: { amount: 12.5, currency: 'BRL' }, type: 'PENDING' });
    expect(await h.balance(a.id)).toEqual({ available: 87.5, blocked: 12.5 });
    await h.advance(1);
    expect(await h.balance(a.id)).toEqual({ available: 87.5, blocked: 0 });
    const got = await h.api('GET', `/dict/pix/${body.id}`, a.token);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: body.id, type: 'COMPLETED', endToEndId: expect.stringMatching(/^E99999999/) });
    const events = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', body.id).execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('cash_out');
    expect(events[0]!.payload).toMatchObject({
      type: 'TRANSFER',
      data: {
        id: body.id,
        txId: null,
        pixKey: 'destino@example.com',
        status: 'LIQUIDATED',
        payment: { amount: '12.50', currency: 'BRL' },
        endToEndId: got.json().endToEndId,
        creditDebitType: 'DEBIT',
        idempotencyKey: key,
        creditorAccount: { name: expect.any(String), ispb: expect.stringMatching(/^\d{8}$/) },
        remittanceInformation: 'aluguel',
      },
    });
    // Listed with the other payouts.
    const list = await h.api('GET', '/api/transactions?type=WITHDRAW', a.token);
    expect(list.json().data.map((t: any) => t.finalAmount)).toEqual([12.5]);
  });

  it('replays the first answer for the same key and body; 422 for another body; money moves once', async () => {
    const a = await payer(h, 100);
    const key = randomUUID();
    const first = await post(a.token, transfer(10), key);
    const replay = await post(a.token, transfer(10), key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const other = await post(a.token, transfer(11), key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ statusCode: 422, message: expect.any(String), error: 'Unprocessable Entity' });
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
  });

  it('a refused request frees its key: a retry after funding runs again', async () => {
    const a = await payer(h, 5);
    const key = randomUUID();
    const poor = await post(a.token, transfer(10), key);
    expect(poor.statusCode).toBe(422);
    await h.deposit(a.id, 10);
    expect((await post(a.token, transfer(10), key)).statusCode).toBe(201);
  });

  it('a key whose first request died (a reservation with no answer, as older versions left) runs at once, without waiting for its age', async () => {
    // Liveness, not age: a duplicate running beside the first waits and replays (see
    // test/postgres/idempotency-liveness.test.ts); a row without an answer has no live owner.
    const a = await payer(h, 100);
    const key = randomUUID();
    const now = h.clock.now();
    const { bodyHash } = await import('../../src/services/idempotency/idempotency.service.ts');
    const body = transfer(10);
    await h.c.db.insertInto('idempotency_keys').values({ scope: 'dict_pix', account_id: a.id, key, body_hash: bodyHash(body), status_code: null, response: null, created_at: now, updated_at: now }).execute();
    const res = await post(a.token, body, key);
    expect(res.statusCode).toBe(201);
    const replay = await post(a.token, body, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(res.json().id);
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
  });

  it('400 without the idempotency header, or with one that is not a UUID v4', async () => {
    const a = await payer(h, 100);
    const missing = await post(a.token, transfer(1), null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ statusCode: 400, message: ['x-idempotency-key is required'], error: 'Bad Request' });
    expect((await post(a.token, transfer(1), 'abc')).statusCode).toBe(400);
  });

  it('400 for an invalid key, amount, priority HIGH without creditorDocument, expiration and paymentFlow out of range', async () => {
    const a = await payer(h, 100);
    for (const pixKey of ['11988887777', '+55119', 'nope', '12345678900']) {
      const res = await post(a.token, transfer(1, { pixKey }));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual([expect.stringMatching(/^pixKey /)]);
    }
    expect((await post(a.token, transfer(1.001))).json().message).toEqual(['payment.amount must be a number with at most 2 decimal places']);
    expect((await post(a.token, transfer(1, { priority: 'HIGH' }))).json().message).toEqual(['creditorDocument is required when priority is HIGH']);
    expect((await post(a.token, transfer(1, { priority: 'HIGH', creditorDocument: cpf(3) }))).statusCode).toBe(201);
    expect((await post(a.token, transfer(1, { expiration: 0 }))).statusCode).toBe(400);
    expect((await post(a.token, transfer(1, { expiration: 10801 }))).statusCode).toBe(400);
    expect((await post(a.token, transfer(1, { paymentFlow: 'x'.repeat(51) }))).statusCode).toBe(400);
    expect((await post(a.token, transfer(1, { pixKey: '+5511988887777', expiration: 10800, paymentFlow: 'x'.repeat(50) }))).statusCode).toBe(201);
  });

  it('422 for a key not found, insufficient balance and a denied ISPB', async () => {
    const a = await payer(h, 10);
    const notFound = await post(a.token, transfer(1, { pixKey: 'alguem@notfound.example' }));
    expect(notFound.statusCode).toBe(422);
    expect((await post(a.token, transfer(1, { pixKey: '00000000-0000-0000-0000-000000000000' }))).statusCode).toBe(422);
    expect((await post(a.token, transfer(10.01))).statusCode).toBe(422);
    await h.admin('POST', '/sandbox/dict/keys', { key: 'bloqueado@example.com', keyType: 'EMAIL', name: 'B', document: cpf(9), ispb: '00000000' });
    const denied = await post(a.token, transfer(1, { pixKey: 'bloqueado@example.com', ispbDeny: ['00000000'] }));
    expect(denied.statusCode).toBe(422);
    expect(await h.balance(a.id)).toEqual({ available: 10, blocked: 0 });
  });

  it('still queued past its expiration: ERROR PAYMENT_EXPIRED and the money back', async () => {
    const a = await payer(h, 100);
    const res = await post(a.token, transfer(10, { expiration: 5 }), randomUUID(), { 'x-sandbox-scenario': 'delayed:60s' });
    expect(res.statusCode).toBe(201);
    await h.advance(5);
    const got = await h.api('GET', `/dict/pix/${res.json().id}`, a.token);
    expect(got.json()).toMatchObject({ type: 'ERROR', errorCode: 'PAYMENT_EXPIRED' });
    expect(await h.balance(a.id)).toEqual({ available: 100, blocked: 0 });
    const [event] = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', res.json().id).execute();
    expect(event!.payload).toMatchObject({ type: 'TRANSFER', data: { status: 'ERROR', endToEndId: null } });
  });

  it("GET /dict/pix/{id} of another account's transfer is 404", async () => {
    const a = await payer(h, 100);
    const b = await payer(h, 0);
    const res = await post(a.token, transfer(1));
    expect((await h.api('GET', `/dict/pix/${res.json().id}`, b.token)).statusCode).toBe(404);
    expect((await h.api('GET', `/dict/pix/${res.json().id}`, a.token)).statusCode).toBe(200);
  });
});
