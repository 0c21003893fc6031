import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { bacenValidator } from './bacen-schemas.ts';

/**
 * Issue 10 item 15: a paid cob carries the `pix` array of the central bank's CobCompleta, so a /cob
 * client finds the end-to-end id its devolução needs; each devolução shows up in it.
 */
const validateCobCompleta = bacenValidator('CobCompleta');
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('GET /cob of a paid charge', () => {
  it('carries pix[] (endToEndId, valor, horario, devolucoes), valid against CobCompleta, usable for /devolucao', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id);
    const txid = 'cobpix0000000000000000000001';
    const created = await h.api('PUT', `/cob/${txid}`, token, { calendario: { expiracao: 3600 }, valor: { original: '25.00' }, chave: account.pixKey }, { 'x-sandbox-scenario': 'pending' });
    expect(created.statusCode, created.body).toBe(201);
    const unpaid = (await h.api('GET', `/cob/${txid}`, token)).json();
    expect(unpaid.status).toBe('ATIVA');
    expect(unpaid.pix).toBeUndefined();
    expect(validateCobCompleta(unpaid), JSON.stringify(validateCobCompleta.errors)).toBe(true);

    const paid = await h.api('POST', `/sandbox/charges/${txid}/pay`, token, {});
    expect(paid.statusCode, paid.body).toBe(200);
    const payment = await h.c.db.selectFrom('transactions').selectAll().where('account_id', '=', account.id).where('kind', '=', 'PAYMENT').executeTakeFirstOrThrow();

    const cob = await h.api('GET', `/cob/${txid}`, token);
    expect(cob.statusCode, cob.body).toBe(200);
    expect(cob.json()).toMatchObject({
      status: 'CONCLUIDA',
      pix: [{ endToEndId: payment.end_to_end_id, txid, valor: '25.00', chave: account.pixKey, horario: payment.processed_at!.toISOString(), devolucoes: [] }],
    });
    expect(cob.json().pix).toHaveLength(1);
    expect(validateCobCompleta(cob.json()), JSON.stringify(validateCobCompleta.errors)).toBe(true);
    // The schema does judge the array: a PIX without its end-to-end id would not pass.
    expect(validateCobCompleta({ ...cob.json(), pix: [{ valor: '25.00', horario: payment.processed_at!.toISOString() }] })).toBe(false);

    // The end-to-end id read from the cob is what a devolução names.
    const e2e = cob.json().pix[0].endToEndId as string;
    const refund = await h.api('PUT', `/pix/${e2e}/devolucao/dev1`, token, { valor: '5.00', descricao: 'troca' });
    expect(refund.statusCode, refund.body).toBe(201);
    const withRefund = (await h.api('GET', `/cob/${txid}`, token)).json();
    expect(withRefund.pix[0].devolucoes).toEqual([refund.json()]);
    expect(withRefund.pix[0].devolucoes[0]).toMatchObject({ id: 'dev1', valor: '5.00', status: 'EM_PROCESSAMENTO' });
    expect(validateCobCompleta(withRefund), JSON.stringify(validateCobCompleta.errors)).toBe(true);
  });
});
