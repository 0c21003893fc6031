import { describe, expect, it } from 'vitest';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { deliverAll, subscribe, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('flow: a receiver failing twice, then succeeding', () => {
  it('is retried only when the clock reaches each retry, and the event is delivered exactly once with one id and one body', async () => {
    const account = await h.createAccount({ name: 'Receptor Instavel' });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    const path = `/${account.id}/cash_in`;
    rx.failNext(path, 2);

    const deposit = await h.api('POST', '/sandbox/deposits', token, { amount: 9.99 });
    expect(deposit.statusCode, deposit.body).toBe(201);
    await deliverAll(h);
    expect(rx.at(path)).toHaveLength(1); // attempt 1: 500

    // Not before the first retry (5 s, jittered by at most 10%).
    await h.advance(4);
    await deliverAll(h);
    expect(rx.at(path)).toHaveLength(1);
    await h.advance(2); // t = 6 s
    await deliverAll(h);
    expect(rx.at(path)).toHaveLength(2); // attempt 2: 500

    // The next retry comes about 5 minutes later (270-330 s after attempt 2).
    await h.advance(260);
    await deliverAll(h);
    expect(rx.at(path)).toHaveLength(2);
    await h.advance(80);
    await deliverAll(h);
    expect(rx.at(path)).toHaveLength(3); // attempt 3: 200

    // Delivered: nothing more, however long we wait.
    await h.advance(3 * 3600);
    await deliverAll(h);
    const attempts = rx.at(path);
    expect(attempts).toHaveLength(3);
    // Every attempt is the same event: one webhook-id, one body, each freshly signed and verifiable.
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.raw)).size).toBe(1);
    const bodies = hooks.bodies('cash_in');
    expect(bodies).toHaveLength(3);
    expect(bodies[2]).toMatchObject({ event: 'CashIn', status: 'CONFIRMED', transactionId: deposit.json().transactionId, originalAmount: 9.99 });
    // The resend route reports the receiver's answer now (with a fresh token: hours have passed).
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(401);
    const resend = await h.api('POST', `/api/resend-webhook/${deposit.json().transactionId}`, await h.tokenFor(account.id));
    expect(resend.json()).toMatchObject({ statusCode: 200 });
    expect(rx.at(path)).toHaveLength(4);
  });
});

describe('ledger invariant', () => {
  it('the postings of every account still sum to its balances', async () => {
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
