import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionsRepo } from '../../src/db/repos/transactions.repo.ts';
import { cents } from '../../src/domain/money.ts';
import { newUuidV4 } from '../../src/domain/ids.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  h = await startHarness();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await h.close();
});

let seq = 0;
const path = (name: string) => `/${name}-${++seq}`;

/** An account with a token, a delivered cash_in (sandbox deposit) and the given URLs registered. */
async function setup(paths: string[] = []) {
  const account = await h.createAccount();
  for (const p of paths) {
    const res = await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url(p) });
    expect(res.statusCode).toBe(201);
  }
  const token = await h.tokenFor(account.id);
  const tx = await h.deposit(account.id, 10);
  await h.c.webhookRelay.runDue();
  return { account, token, tx };
}

describe('POST /api/resend-webhook/{transactionIdentifier}', () => {
  it('resends the latest event by numeric id, transactionId, end-to-end id and externalId, signed like a delivery', async () => {
    const p = path('resend');
    const { account, token, tx } = await setup([p]);
    await h.c.db.updateTable('transactions').set({ external_id: `ext-${tx.id}` }).where('id', '=', tx.id).execute();
    const event = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', tx.id).executeTakeFirstOrThrow();
    // The text emit stored (json keeps it as written, migration 1000).
    const stored = (await sql<{ text: string }>`SELECT payload::text AS text FROM events WHERE id = ${event.id}`.execute(h.c.db)).rows[0]!.text;
    const secret = (await h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret;
    expect(rx.to(p)).toHaveLength(1);
    for (const identifier of [String(tx.id), tx.transactionId, tx.endToEndId, `ext-${tx.id}`]) {
      const res = await h.api('POST', `/api/resend-webhook/${encodeURIComponent(identifier)}`, token);
      expect(res.statusCode, `${identifier}: ${res.body}`).toBe(200);
      const body = res.json();
      expect(body).toEqual({ message: expect.stringContaining('answered 200'), webhookLogId: expect.any(Number), sentAt: h.clock.now().toISOString(), statusCode: 200 });
      const log = await h.c.db.selectFrom('webhook_logs').selectAll().where('id', '=', body.webhookLogId).executeTakeFirstOrThrow();
      expect(log).toMatchObject({ kind: 'resend', delivery_id: null, url: rx.url(p), status_code: 200, account_id: account.id });
    }
    const got = rx.to(p);
    expect(got).toHaveLength(5);
    for (const req of got) {
      expect(req.body).toBe(stored);
      expect(req.headers['webhook-id']).toBe(event.event_id);
      expect(new Webhook(secret).verify(req.body, req.headers as Record<string, string>)).toMatchObject({ event: 'CashIn', transactionId: tx.transactionId });
    }
    // A resend is outside the delivery's schedule: the delivery stays as it was.
    const deliveries = await h.c.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', account.id).execute();
    expect(deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  });

  it('sends to every active URL of the event and answers the first attempt, statusCode 0 when no answer came', async () => {
    const closed = await startReceiver();
    const deadUrl = closed.url('/dead');
    await closed.close();
    const account = await h.createAccount();
    const live = path('live');
    rx.on(live, () => ({ status: 500, body: 'boom' }));
    await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: deadUrl });
    await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url(live) });
    const token = await h.tokenFor(account.id);
    const tx = await h.deposit(account.id, 1);
    const res = await h.api('POST', `/api/resend-webhook/${tx.transactionId}`, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ statusCode: 0, message: expect.stringContaining('ECONNREFUSED') });
    expect(rx.to(live)).toHaveLength(1);
    const logs = await h.c.db.selectFrom('webhook_logs').selectAll().where('account_id', '=', account.id).where('kind', '=', 'resend').orderBy('id').execute();
    expect(logs.map((l) => [l.url, l.status_code])).toEqual([
      [deadUrl, null],
      [rx.url(live), 500],
    ]);
    expect(logs[1]!.response_excerpt).toBe('boom');
  });

  it('sends once to a URL given in the body, without storing it, and validates it like a registration', async () => {
    const registered = path('registered');
    const oneOff = path('one-off');
    const { account, token, tx } = await setup([registered]);
    const res = await h.api('POST', `/api/resend-webhook/${tx.id}`, token, { url: rx.url(oneOff) });
    expect(res.statusCode).toBe(200);
    expect(res.json().statusCode).toBe(200);
    expect(rx.to(oneOff)).toHaveLength(1);
    expect(rx.to(registered)).toHaveLength(1); // only the original delivery
    const list = (await h.admin('GET', `/admin/accounts/${account.id}/webhooks`)).json();
    expect(list.data.map((w: { url: string }) => w.url)).toEqual([rx.url(registered)]);
    const bad = await h.api('POST', `/api/resend-webhook/${tx.id}`, token, { url: 'http://hooks.example.com/x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'HTTP_ERROR', message: [expect.stringMatching(/^url must use HTTPS/)] });
  });

  it('answers 404 for an unknown transaction and for one of another account', async () => {
    const mine = await setup();
    const other = await setup([path('other')]);
    for (const identifier of ['999999', newUuidV4(), String(other.tx.id), other.tx.transactionId, other.tx.endToEndId]) {
      const res = await h.api('POST', `/api/resend-webhook/${identifier}`, mine.token);
      expect(res.statusCode, identifier).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, code: 'WEBHOOK_TRANSACTION_NOT_FOUND', errorCode: 'WEBHOOK_TRANSACTION_NOT_FOUND' });
    }
  });

  it('answers 400 when no URL is registered for the event and none is given', async () => {
    const { account, token, tx } = await setup();
    await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_out', url: 'https://x.example.com/' });
    const res = await h.api('POST', `/api/resend-webhook/${tx.transactionId}`, token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'WEBHOOK_NO_URL', details: { eventType: 'cash_in' }, userMessage: expect.any(String) });
  });

  it('answers 400 for a transaction that has emitted no event yet', async () => {
    const { account, token } = await setup([path('pending')]);
    const now = h.clock.now();
    const pending = await transactionsRepo.insert(h.c.db, {
      transaction_id: newUuidV4(),
      account_id: account.id,
      kind: 'WITHDRAW',
      status: 'PENDING',
      origin: 'cash_out',
      external_id: 'still-pending',
      original_amount: cents(100),
      final_amount: cents(100),
      end_to_end_id: null,
      pix_key: null,
      description: null,
      error_code: null,
      error_message: null,
      counterpart: null,
      parent_id: null,
      scenario: null,
      created_at: now,
      processed_at: null,
      updated_at: now,
    });
    const res = await h.api('POST', `/api/resend-webhook/still-pending`, token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'WEBHOOK_NO_EVENT', details: { transactionId: pending.transaction_id, status: 'PENDING' } });
  });

  it('allows 60 resends a minute per account and answers the 61st 429 with Retry-After and RateLimit headers', async () => {
    const p = path('rate');
    const { token, tx } = await setup([p]);
    const other = await setup([path('rate-other')]);
    h.clock.set(new Date(Math.ceil(h.clock.now().getTime() / 60_000) * 60_000 + 10_000)); // 10 s into a window
    for (let i = 1; i <= 60; i++) {
      const res = await h.api('POST', `/api/resend-webhook/${tx.id}`, token);
      expect(res.statusCode, `call ${i}`).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(60 - i));
    }
    const refused = await h.api('POST', `/api/resend-webhook/${tx.id}`, token);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.headers['ratelimit-limit']).toBe('60');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe('50');
    expect(refused.json()).toMatchObject({ statusCode: 429, code: 'HTTP_ERROR', message: expect.stringContaining('60 a minute') });
    expect(rx.to(p)).toHaveLength(61); // the delivery and 60 resends: the refused call sent nothing
    // Another account has its own budget; the next window starts afresh.
    expect((await h.api('POST', `/api/resend-webhook/${other.tx.id}`, other.token)).statusCode).toBe(200);
    h.clock.advance(50);
    expect((await h.api('POST', `/api/resend-webhook/${tx.id}`, token)).statusCode).toBe(200);
  });

  it('needs a token with the webhook:write scope', async () => {
    const { account, tx } = await setup();
    expect((await h.app.inject({ method: 'POST', url: `/api/resend-webhook/${tx.id}` })).statusCode).toBe(401);
    const readOnly = await h.tokenFor(account.id, ['webhook:read']);
    expect((await h.api('POST', `/api/resend-webhook/${tx.id}`, readOnly)).statusCode).toBe(403);
  });
});
