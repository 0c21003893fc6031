import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskDocument } from '../../src/domain/documents.ts';
import type { DictKey } from '../../src/domain/pix-keys.ts';
import { syntheticHolder } from '../../src/network/sandbox/key-directory.ts';
import { cnpj, cpf } from '../factories.ts';
import { detailText, payoutConfirmationForm, portalHttpClient } from '../portal/portal-client.ts';
import { asAdmin, call, customerOfA, expectBooksAgree, startWorld, waitFor, type World } from './provider-kit.ts';

/**
 * Issue 21 item 1, "Done means": a portal payout through the provider adapter in production mode,
 * over HTTP, with the provider kit's two instances on real PostgreSQL: A (production) pays through
 * its pooled account at B (this service in sandbox mode, playing the provider). Keys B's directory
 * never registered, all five types. A's confirmation says what it cannot know before the payment
 * settles and asks what the provider needs; B's notice then tells A who received the money.
 */
let w: World;
let customer: Awaited<ReturnType<typeof customerOfA>>;
let member: ReturnType<typeof portalHttpClient>;
let holds = 0;

beforeAll(async () => {
  w = await startWorld({ reconcileAfterS: '30' });
  customer = await customerOfA(w, 1);
  // Money in: a charge at A, registered at B and paid there by B's sandbox payer.
  const charge = await customer.api('POST', '/api/pix/cash-in', {
    transaction: { value: 100, description: 'Saldo inicial', externalId: 'saldo-1' },
    payer: { fullName: 'Maria Pagadora', document: cpf(9901) },
  });
  expect(charge.status, JSON.stringify(charge.body)).toBe(201);
  await waitFor('the charge paid at A', async () => (await customer.api('GET', `/api/pix/transaction/${charge.body.transactionId}`)).body.status === 'CONFIRMED');
  holds = 10_000;
  // A member of that account signs in to A's portal over HTTP.
  const invited = await call(w.a.url, 'POST', `/admin/accounts/${customer.id}/members`, { email: 'caixa@cliente.example' }, asAdmin);
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const path = new URL(invited.body.invitationUrl).pathname;
  member = portalHttpClient(w.a.url);
  await member.get(path);
  expect((await member.post(path, { password: 'a long enough password' })).statusCode).toBe(303);
  await member.signIn('caixa@cliente.example', 'a long enough password');
}, 240_000);
afterAll(() => w?.close(), 60_000);


const KEYS: Array<{ keyType: string; key: string; dict: DictKey }> = [
  { keyType: 'EMAIL', key: 'loja.destino@pagamentos.example', dict: { type: 'EMAIL', normalized: 'loja.destino@pagamentos.example' } },
  { keyType: 'PHONE', key: '11987651234', dict: { type: 'PHONE', normalized: '+5511987651234' } },
  { keyType: 'RANDOM', key: '3c2b1a0f-9e8d-4c7b-a6f5-e4d3c2b1a090', dict: { type: 'EVP', normalized: '3c2b1a0f-9e8d-4c7b-a6f5-e4d3c2b1a090' } },
  { keyType: 'DOCUMENT', key: cpf(8811), dict: { type: 'CPF', normalized: cpf(8811) } },
  { keyType: 'DOCUMENT', key: cnpj(8812), dict: { type: 'CNPJ', normalized: cnpj(8812) } },
];

describe('A (production) pays from its portal through B (the provider)', { timeout: 120_000 }, () => {
  for (const [i, { keyType, key, dict }] of KEYS.entries()) {
    it(`${dict.type} key never registered at B: review, confirm, CONFIRMED, and B's answer fills in the receiver`, async () => {
      const review = await member.post('/portal/payouts/review', { keyType, key, amount: '10,00', description: `Portal ${dict.type}` });
      expect(review.statusCode, review.body.slice(0, 400)).toBe(200);
      expect(detailText(review.body, 'holder-name')).toBe('Not known until the payment settles');
      expect(detailText(review.body, 'holder-bank')).toBe('Not known until the payment settles');
      const documentKey = dict.type === 'CPF' || dict.type === 'CNPJ';
      const document = documentKey ? key : cpf(7700 + i);
      const form = payoutConfirmationForm(review.body);
      if (documentKey) {
        expect(detailText(review.body, 'holder-document')).toBe(maskDocument(key));
        expect(review.body).not.toContain('name="document"');
      } else {
        expect(review.body).toContain('name="document"');
        Object.assign(form, { document, name: 'Loja Destino' });
      }
      const sent = await member.post('/portal/payouts', form);
      expect(sent.statusCode, sent.body.slice(0, 400)).toBe(303);
      const transactionId = String(sent.headers.location).split('/').pop()!;

      const done = await waitFor(`payout ${transactionId} to finish at A`, async () => {
        const t = await customer.api('GET', `/api/pix/transaction/${transactionId}`);
        return t.body.status !== 'PENDING' && t.body;
      });
      expect(done).toMatchObject({ status: 'CONFIRMED', type: 'WITHDRAW', originalAmount: 10 });
      holds -= 1_000;
      // At B: one cash-out of the pooled account, to that key, with the document A sent.
      const atB = await w.dbB.query("SELECT status, pix_key, counterpart FROM transactions WHERE external_id = $1 AND kind = 'WITHDRAW'", [transactionId]);
      expect(atB.rows).toHaveLength(1);
      expect(atB.rows[0]).toMatchObject({ status: 'CONFIRMED', counterpart: { document } });
      // At A: who received it, as B's notice told it (the bank A could not know before).
      const bank = syntheticHolder(dict, {}).bank;
      const atA = await w.dbA.query('SELECT counterpart FROM transactions WHERE transaction_id = $1', [transactionId]);
      expect(atA.rows[0].counterpart).toMatchObject({ name: atB.rows[0].counterpart.name, document, bank: { bankISPB: bank.ispb, bankName: bank.name } });
      if (!documentKey) expect(atA.rows[0].counterpart.name).toBe('Loja Destino');
      const page = await member.get(`/portal/transactions/${transactionId}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(bank.name);
      expect(page.body).not.toContain('Not known until the payment settles');
      await expectBooksAgree(w, { customers: holds });
    });
  }
});
