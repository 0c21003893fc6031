import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import { parseBrCode } from '../../src/domain/brcode/parse.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** The OnUsCharges port the payouts feature calls for a BR Code whose location is ours (decisions 4.11). */
describe('on-us payment of a charge by its location', () => {
  it('credits the receiver once inside the given transaction, and refuses what it must', async () => {
    const receiver = await h.createAccount();
    const token = await h.tokenFor(receiver.id);
    const created = (
      await h.api('POST', '/api/pix/cash-in', token, {
        transaction: { value: 40, description: 'Conta', externalId: 'on-us-1' },
        payer: { fullName: 'Pagador', document: cpf(3) },
      }, { 'x-sandbox-scenario': 'pending' })
    ).json();
    const parsed = parseBrCode(created.pixCode);
    if (!parsed.ok) throw new Error(parsed.reason);
    const url = JSON.stringify(parsed.code).match(/"([^"]*\/qr\/v2\/[0-9a-f]{32})"/)![1]!;
    const payer = { name: 'Conta Pagadora', document: cpf(4), ispb: h.c.config.institutionIspb };
    const pay = (amount: number | undefined, at = url) =>
      h.c.db.transaction().execute((trx) =>
        h.c.onUsCharges.payByLocation(trx, { url: at, amount: amount as Cents | undefined, payerAccountId: 1, payer, endToEndId: `E${h.c.config.institutionIspb}202611201500abcdefghijk` }),
      );
    expect(await pay(undefined, `${h.c.config.publicHost}/qr/v2/${'0'.repeat(32)}`)).toEqual({ ok: false, reason: 'NOT_FOUND' });
    expect(await pay(undefined, `elsewhere.example/qr/v2/${url.slice(-32)}`)).toEqual({ ok: false, reason: 'NOT_FOUND' });
    expect(await pay(4100)).toEqual({ ok: false, reason: 'AMOUNT_MISMATCH' });
    const ok = await pay(4000);
    expect(ok).toEqual({ ok: true, receiverTransactionId: expect.any(Number), amount: 4000 });
    expect(await pay(undefined)).toEqual({ ok: false, reason: 'NOT_PAYABLE' });
    expect(await h.balance(receiver.id)).toEqual({ available: 40, blocked: 0 });
    const tx = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', created.transactionId).executeTakeFirstOrThrow();
    expect(tx).toMatchObject({ status: 'CONFIRMED', end_to_end_id: `E${h.c.config.institutionIspb}202611201500abcdefghijk` });
    expect(tx.counterpart).toMatchObject({ name: 'Conta Pagadora', bank: { bankISPB: h.c.config.institutionIspb } });
  });
});
