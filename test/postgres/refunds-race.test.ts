import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix } from '../refunds/refund-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('refunds racing on PostgreSQL', () => {
  it('two refunds for the last remaining amount, one per family: exactly one succeeds', async () => {
    for (let round = 0; round < 5; round++) {
      const { account, pix, token } = await accountWithReceivedPix(h, 100);
      expect((await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 60 })).statusCode).toBe(201);
      const [a, b] = await Promise.all([
        h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 40 }),
        h.api('PUT', `/pix/${pix.endToEndId}/devolucao/last${round}`, token, { valor: '40.00' }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 400]);
      const original = await h.c.db.selectFrom('transactions').selectAll().where('id', '=', pix.id).executeTakeFirstOrThrow();
      expect(original.refunded_amount).toBe(10_000);
      expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 100 });
    }
  });

  it('the same refund id sent 8 times at once (issue 10 item 1, the refund paths): one refund, the others told the id is taken', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const viaApi = await Promise.all(Array.from({ length: 8 }, () => h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 10, externalId: 'sameRefund1' })));
    expect(viaApi.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(viaApi.filter((r) => r.statusCode !== 201).map((r) => [r.statusCode, r.json().code])).toEqual(Array.from({ length: 7 }, () => [400, 'PIX_REFUND_DUPLICATE_EXTERNAL_ID']));
    const viaBacen = await Promise.all(Array.from({ length: 8 }, () => h.api('PUT', `/pix/${pix.endToEndId}/devolucao/sameDev1`, token, { valor: '10.00' })));
    expect(viaBacen.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(viaBacen.filter((r) => r.statusCode !== 201).map((r) => [r.statusCode, r.json().message])).toEqual(
      Array.from({ length: 7 }, () => [409, 'This devolucao id was already used for this PIX.']),
    );
    const original = await h.c.db.selectFrom('transactions').selectAll().where('id', '=', pix.id).executeTakeFirstOrThrow();
    expect(original.refunded_amount).toBe(2_000);
    const refunds = await h.c.db.selectFrom('transactions').select('id').where('parent_id', '=', pix.id).execute();
    expect(refunds).toHaveLength(2);
    expect(await h.balance(account.id)).toEqual({ available: 80, blocked: 20 });
  });

  it('ten concurrent refunds of 15.00 over 100.00: exactly six succeed', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.api('POST', `/api/pix/refund-in/${pix.id}`, token, { refundValue: 15 })),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(6);
    // The other four are refused for the amount (not merely 'not 201': a 500 must fail here).
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, r.json().code])).toEqual(Array.from({ length: 4 }, () => [400, 'PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE']));
    expect(await h.balance(account.id)).toEqual({ available: 10, blocked: 90 });
    await h.advance(2);
    expect(await h.balance(account.id)).toEqual({ available: 10, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('a MED approval and a refund racing for the same money never refund more than the PIX', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    await h.deposit(account.id, 500);
    const med = (await h.api('POST', '/sandbox/med', token, { endToEndId: pix.endToEndId, amount: 80 })).json();
    await h.api('POST', `/sandbox/med/${med.id}/transition`, token, { to: 'RECEIVED' });
    const [approve, refund] = await Promise.all([
      h.api('POST', `/sandbox/med/${med.id}/transition`, token, { to: 'ANALYZED', analysisResult: 'APPROVED' }),
      h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 50 }),
    ]);
    expect(approve.statusCode).toBe(200);
    expect([201, 400]).toContain(refund.statusCode);
    const original = await h.c.db.selectFrom('transactions').selectAll().where('id', '=', pix.id).executeTakeFirstOrThrow();
    expect(original.refunded_amount).toBeLessThanOrEqual(10_000);
    expect(original.refunded_amount).toBe(refund.statusCode === 201 ? 10_000 : 8_000);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
