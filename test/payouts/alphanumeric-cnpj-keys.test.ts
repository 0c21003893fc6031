import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsRepo } from '../../src/db/repos/accounts.repo.ts';
import { parseBrCode } from '../../src/domain/brcode/parse.ts';
import { encodeStaticBrCode } from '../../src/domain/brcode/encode.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cpf } from '../factories.ts';
import { cashOutBody, eventsOf, payer, txRow } from './helpers.ts';

// Issue 30 item 5: since July 2026 a CNPJ key may be alphanumeric (IN RFB 2.229/2024, API Pix 2.9.0):
// 12 of [0-9A-Z] then 2 check digits, upper case only.
const DIRECTORY_CNPJ = 'PIXK3Y0001AB07'; // a key at another bank (the sandbox directory)
const ACCOUNT_CNPJ = '12ABC34501DE35'; // the Receita Federal's example, a key of an account of ours
const HOLDER = { name: 'Empresa Alfanumérica Ltda', ispb: '60746948' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const registered = await h.admin('POST', '/sandbox/dict/keys', { key: DIRECTORY_CNPJ, keyType: 'CNPJ', name: HOLDER.name, document: DIRECTORY_CNPJ, ispb: HOLDER.ispb });
  expect(registered.statusCode, registered.body).toBe(201);
  expect(registered.json()).toMatchObject({ key: DIRECTORY_CNPJ, keyType: 'CNPJ' });
});
afterAll(() => h.close());

describe('alphanumeric CNPJ keys', () => {
  it('cash-out by key (keyType DOCUMENT) pays the directory entry the key was registered under', async () => {
    const a = await payer(h, 100);
    const body = cashOutBody({ value: 12 }, { key: DIRECTORY_CNPJ, keyType: 'DOCUMENT', name: 'Como o pagador escreveu', document: DIRECTORY_CNPJ });
    const res = await h.api('POST', '/api/pix/cash-out', a.token, body);
    expect(res.statusCode, res.body).toBe(201);
    await h.advance(1);
    expect((await txRow(h, res.json().transactionId)).status).toBe('CONFIRMED');
    const [event] = await eventsOf(h, res.json().transactionId);
    // The holder's name is the directory's, not the one the payer typed: the same entry was found.
    expect(event!.payload).toMatchObject({ status: 'CONFIRMED', pixKey: DIRECTORY_CNPJ, counterpart: { name: HOLDER.name, bank: { bankISPB: HOLDER.ispb } } });
    expect(await h.balance(a.id)).toEqual({ available: 88, blocked: 0 });
  });

  it('/dict/pix pays the same directory entry (the compatible family spells the key the same way)', async () => {
    const a = await payer(h, 100);
    const res = await h.api('POST', '/dict/pix', a.token, { pixKey: DIRECTORY_CNPJ, creditorDocument: DIRECTORY_CNPJ, payment: { currency: 'BRL', amount: 7.5 } }, { 'x-idempotency-key': randomUUID() });
    expect(res.statusCode, res.body).toBe(201);
    await h.advance(1);
    expect((await h.api('GET', `/dict/pix/${res.json().id}`, a.token)).json()).toMatchObject({ type: 'COMPLETED' });
    const event = await h.c.db.selectFrom('events').select('payload').where('transaction_id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ type: 'TRANSFER', data: { pixKey: DIRECTORY_CNPJ, status: 'LIQUIDATED', creditorAccount: { name: HOLDER.name, ispb: HOLDER.ispb } } });
    expect(await h.balance(a.id)).toEqual({ available: 92.5, blocked: 0 });
  });

  it("a /cob keyed to an account's alphanumeric CNPJ key carries it in its BR Code and is paid by QR code; a cash-out by key reaches the same account", async () => {
    const company = await h.createAccount({ name: 'Alfa Comércio', document: ACCOUNT_CNPJ });
    await accountsRepo.addKey(h.c.db, company.id, ACCOUNT_CNPJ, 'CNPJ', h.clock.now());
    const token = await h.tokenFor(company.id);
    const txid = `alnumcnpj${randomUUID().replaceAll('-', '')}`.slice(0, 30);
    const cob = await h.api('PUT', `/cob/${txid}`, token, { calendario: { expiracao: 3600 }, valor: { original: '30.00' }, chave: ACCOUNT_CNPJ });
    expect(cob.statusCode, cob.body).toBe(201);
    expect(cob.json()).toMatchObject({ chave: ACCOUNT_CNPJ, status: 'ATIVA' });
    expect(parseBrCode(cob.json().pixCopiaECola)).toMatchObject({ ok: true });

    const a = await payer(h, 100);
    const paid = await h.api('POST', '/api/pix/cash-out-qrcode', a.token, { value: 30, qrCode: cob.json().pixCopiaECola, externalId: randomUUID() });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await h.api('GET', `/cob/${txid}`, token)).json().status).toBe('CONCLUIDA');

    // A static BR Code whose key (26-01) is the alphanumeric CNPJ pays it on-us too.
    const staticCode = encodeStaticBrCode({ key: ACCOUNT_CNPJ, merchantName: 'ALFA COMERCIO', merchantCity: 'SAO PAULO' });
    const byStatic = await h.api('POST', '/api/pix/cash-out-qrcode', a.token, { value: 5, qrCode: staticCode, externalId: randomUUID() });
    expect(byStatic.statusCode, byStatic.body).toBe(201);
    expect(byStatic.json().status).toBe('CONFIRMED');

    const byKey = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 4 }, { key: ACCOUNT_CNPJ, keyType: 'DOCUMENT', name: 'Alfa', document: ACCOUNT_CNPJ }));
    expect(byKey.statusCode, byKey.body).toBe(201);
    expect(byKey.json().status).toBe('CONFIRMED');
    expect((await h.balance(company.id)).available).toBe(39);
  });

  describe('lower case or a wrong check digit is a 400 naming the field', () => {
    const LOWER = DIRECTORY_CNPJ.toLowerCase();
    const WRONG = `${DIRECTORY_CNPJ.slice(0, 13)}8`;

    it.each([
      ['lower case', LOWER, /details\.key.*upper case/],
      ['a wrong check digit', WRONG, /details\.key.*check digits/],
    ])('cash-out: %s', async (_what, key, message) => {
      const a = await payer(h, 100);
      const res = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({}, { key, keyType: 'DOCUMENT', document: cpf(77) }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'HTTP_ERROR', message: [expect.stringMatching(message)] });
      expect(await h.balance(a.id)).toEqual({ available: 100, blocked: 0 });
    });

    it.each([LOWER, WRONG])('/dict/pix, /cob and a CNPJ split refuse %j', async (key) => {
      const a = await payer(h, 100);
      const dict = await h.api('POST', '/dict/pix', a.token, { pixKey: key, payment: { currency: 'BRL', amount: 1 } }, { 'x-idempotency-key': randomUUID() });
      expect(dict.statusCode).toBe(400);
      expect(dict.json().message.join(' ')).toMatch(/pixKey/);
      const cob = await h.api('PUT', `/cob/badcnpj${randomUUID().replaceAll('-', '')}`.slice(0, 40), a.token, { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: key });
      expect(cob.statusCode).toBe(400);
      expect(JSON.stringify(cob.json().message)).toMatch(/chave/);
      const split = await h.api('POST', '/api/pix/cash-in', a.token, {
        transaction: { value: 10, description: 'Venda', externalId: randomUUID() },
        payer: { fullName: 'Cliente', document: cpf(1) },
        splits: [{ pixKey: key, pixKeyType: 'CNPJ', name: 'Sócio', document: DIRECTORY_CNPJ, type: 'FIXED', value: 1 }],
      });
      expect(split.statusCode, split.body).toBe(400);
      expect(JSON.stringify(split.json().message)).toMatch(/splits\[0\]\.pixKey|splits\/0\/pixKey/);
      const directory = await h.admin('POST', '/sandbox/dict/keys', { key, keyType: 'CNPJ', name: 'X', document: DIRECTORY_CNPJ, ispb: HOLDER.ispb });
      expect(directory.statusCode).toBe(400);
      expect(JSON.stringify(directory.json().message)).toMatch(/key/);
    });
  });
});
