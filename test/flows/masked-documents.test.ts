import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cnpj, cpf } from '../factories.ts';
import type { Harness } from '../harness.ts';
import { deliverAll, subscribe, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

/**
 * Counterparty documents are masked everywhere the service shows them (interface spec: transactions,
 * MED, version-2 webhooks; decisions 3: `***.456.789-**`, `**.345.678/0001-**`): the raw digits of
 * every counterparty appear in no answer of the public family, no /dict/pix answer and no webhook.
 */
let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('masked documents', () => {
  it('no raw counterparty document in any answer or webhook', async () => {
    const account = await h.createAccount({ name: 'Conta Mascara', funds: 500 });
    const token = await h.tokenFor(account.id);
    await subscribe(h, rx, account.id);
    const docs = { payerCpf: cpf(313131), payerCnpj: cnpj(4242), supplier: cpf(515151), creditor: cpf(616161), debtor: cpf(717171) };

    const ids: string[] = [];
    const byCpf = await h.api('POST', '/sandbox/deposits', token, { amount: 100, payer: { name: 'Pessoa Fisica', document: docs.payerCpf, ispb: '60746948' } });
    const byCnpj = await h.api('POST', '/sandbox/deposits', token, { amount: 100, payer: { name: 'Empresa SA', document: docs.payerCnpj, ispb: '00000000' } });
    ids.push(byCpf.json().transactionId, byCnpj.json().transactionId);
    const out = await h.api('POST', '/api/pix/cash-out', token, { value: 10, externalId: 'mask-out', details: { key: 'fornecedor@example.com', keyType: 'EMAIL', name: 'Fornecedor', document: docs.supplier } });
    ids.push(out.json().transactionId);
    const transfer = await h.api('POST', '/dict/pix', token, { pixKey: 'credor@example.com', creditorDocument: docs.creditor, priority: 'HIGH', payment: { currency: 'BRL', amount: 5 } }, { 'x-idempotency-key': randomUUID() });
    const txid = 'maskCob0000000000000000000001';
    await h.api('PUT', `/cob/${txid}`, token, { calendario: { expiracao: 3600 }, valor: { original: '7.00' }, chave: account.pixKey });
    const cobPaid = await h.api('POST', `/sandbox/charges/${txid}/pay`, token, { payer: { name: 'Devedor', document: docs.debtor, ispb: '00000000' } });
    ids.push(cobPaid.json().transactionId);
    const refund = await h.api('POST', `/api/pix/refund-in/${byCpf.json().transactionId}`, token, { refundValue: 1 });
    ids.push(refund.json().transactionId);
    await h.api('PUT', `/pix/${byCnpj.json().endToEndId}/devolucao/mask1`, token, { valor: '1.00' });
    await h.api('POST', '/sandbox/med', token, { endToEndId: byCpf.json().endToEndId, amount: 2 });
    await h.advance(2);
    await deliverAll(h);

    const answers: string[] = [];
    answers.push((await h.api('GET', '/api/transactions?size=100', token)).body);
    for (const id of ids) answers.push((await h.api('GET', `/api/pix/transaction/${id}`, token)).body);
    answers.push((await h.api('GET', '/api/med', token)).body);
    answers.push((await h.api('GET', `/dict/pix/${transfer.json().id}`, token)).body);
    answers.push((await h.api('GET', `/pix/${byCnpj.json().endToEndId}/devolucao/mask1`, token)).body);
    const webhooks = rx.received.filter((r) => r.path.startsWith(`/${account.id}/`)).map((r) => r.raw);
    expect(webhooks.length).toBeGreaterThanOrEqual(7);

    const everything = [...answers, ...webhooks].join('\n');
    for (const [name, doc] of Object.entries(docs)) expect(everything, name).not.toContain(doc);
    // And the masked forms are there: CPF ***.456.789-**, CNPJ **.345.678/0001-**.
    const maskCpf = (d: string) => `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
    const maskCnpj = (d: string) => `**.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-**`;
    expect(everything).toContain(maskCpf(docs.payerCpf));
    expect(everything).toContain(maskCnpj(docs.payerCnpj));
    expect(everything).toContain(maskCpf(docs.supplier));
    expect(everything).toContain(maskCpf(docs.creditor));
    expect(everything).toContain(maskCpf(docs.debtor));
  });
});
