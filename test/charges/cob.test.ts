import { compactVerify, createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cnpj, cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { bacenValidator } from './bacen-schemas.ts';

let h: Harness;
let account: { id: number; pixKey: string; name: string };
let token: string;
let n = 0;
const newTxid = () => `txid${String(++n).padStart(4, '0')}abcdefghijklmnopqrstuv`; // 30 chars

const validateCob = bacenValidator('CobGerada');

beforeAll(async () => {
  h = await startHarness();
  account = await h.createAccount({ name: 'Padaria Pão Quente' });
  token = await h.tokenFor(account.id);
});
afterAll(() => h.close());

const cobBody = (overrides: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  devedor: { cpf: cpf(555), nome: 'Fulano de Tal' },
  valor: { original: '123.45' },
  chave: account.pixKey,
  solicitacaoPagador: 'Serviço realizado.',
  infoAdicionais: [{ nome: 'Campo 1', valor: 'Informação Adicional1 do PSP-Recebedor' }],
  ...overrides,
});
const put = (txid: string, b: unknown, headers: Record<string, string> = {}, t = token) => h.api('PUT', `/cob/${txid}`, t, b, headers);

describe('PUT /cob/{txid}', () => {
  it('creates an ATIVA charge at revision 0 that validates against CobGerada', async () => {
    const txid = newTxid();
    const res = await put(txid, cobBody());
    expect(res.statusCode).toBe(201);
    const cob = res.json();
    expect(validateCob(cob), JSON.stringify(validateCob.errors)).toBe(true);
    expect(cob).toMatchObject({
      txid,
      revisao: 0,
      status: 'ATIVA',
      calendario: { criacao: '2026-11-20T15:00:00.000Z', expiracao: 3600 },
      loc: { id: expect.any(Number), tipoCob: 'cob' },
      valor: { original: '123.45', modalidadeAlteracao: 0 },
      chave: account.pixKey,
      devedor: { cpf: cpf(555), nome: 'Fulano de Tal' },
    });
    expect(cob.location).toBe(cob.loc.location);
    expect(cob.location).toMatch(/^000201010212/);
    expect(cob.pixCopiaECola).toBe(cob.location);
    const minimal = await put(newTxid(), { calendario: {}, valor: { original: '1.00', modalidadeAlteracao: 1 }, chave: account.pixKey });
    expect(minimal.statusCode).toBe(201);
    expect(validateCob(minimal.json()), JSON.stringify(validateCob.errors)).toBe(true);
    expect(minimal.json().calendario.expiracao).toBe(86400);
    const company = await put(newTxid(), cobBody({ devedor: { cnpj: cnpj(9), nome: 'ACME' } }));
    expect(company.statusCode).toBe(201);
    expect(validateCob(company.json()), JSON.stringify(validateCob.errors)).toBe(true);
  });

  it('answers 409 on a used txid; the same txid is free for another account', async () => {
    const txid = newTxid();
    expect((await put(txid, cobBody())).statusCode).toBe(201);
    const again = await put(txid, cobBody());
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, message: expect.any(String), error: 'Conflict' });
    const other = await h.createAccount();
    const otherToken = await h.tokenFor(other.id);
    expect((await put(txid, cobBody({ chave: other.pixKey }), {}, otherToken)).statusCode).toBe(201);
  });

  it('refuses each invalid field in the short form', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['short', cobBody(), 'txid'],
      [newTxid(), cobBody({ devedor: { cpf: '123.456.789-09', nome: 'X' } }), 'devedor.cpf'],
      [newTxid(), cobBody({ devedor: { cpf: '12345678900', nome: 'X' } }), 'devedor.cpf'],
      [newTxid(), cobBody({ devedor: { cnpj: '12345678000100', nome: 'X' } }), 'devedor.cnpj'],
      [newTxid(), cobBody({ devedor: { cpf: cpf(1), cnpj: cnpj(1), nome: 'X' } }), 'devedor'],
      [newTxid(), cobBody({ valor: { original: '10' } }), 'valor.original'],
      [newTxid(), cobBody({ valor: { original: '10.5' } }), 'valor.original'],
      [newTxid(), cobBody({ valor: { original: '0.00' } }), 'valor.original'],
      [newTxid(), cobBody({ valor: { original: 10.5 } }), 'valor.original'],
      [newTxid(), cobBody({ valor: { original: '1.00', modalidadeAlteracao: 2 } }), 'valor.modalidadeAlteracao'],
      [newTxid(), cobBody({ chave: 'x'.repeat(78) }), 'chave'],
      [newTxid(), cobBody({ chave: 'someone@else.example' }), 'chave'],
      [newTxid(), cobBody({ solicitacaoPagador: 'x'.repeat(141) }), 'solicitacaoPagador'],
      [newTxid(), cobBody({ infoAdicionais: [{ nome: 'a' }] }), 'infoAdicionais[0].valor'],
      [newTxid(), cobBody({ calendario: { expiracao: 10 } }), 'calendario.expiracao'],
    ];
    for (const [txid, b, field] of cases) {
      const res = await put(txid, b);
      expect(res.statusCode, field).toBe(400);
      const { message, error } = res.json();
      expect(error).toBe('Bad Request');
      expect(JSON.stringify(message), field).toContain(field);
    }
  });

  it('answers 400 below the provider minimum and 401/403 without a proper token', async () => {
    expect((await put(newTxid(), cobBody({ calendario: { expiracao: 45 } }))).statusCode).toBe(400);
    expect((await h.app.inject({ method: 'PUT', url: `/cob/${newTxid()}`, payload: cobBody() })).statusCode).toBe(401);
    const readOnly = await h.tokenFor(account.id, ['pix:read']);
    expect((await put(newTxid(), cobBody(), {}, readOnly)).statusCode).toBe(403);
  });
});

describe('GET and PATCH /cob/{txid}', () => {
  it('reads the account own cob, 404 for a foreign or unknown one', async () => {
    const txid = newTxid();
    await put(txid, cobBody());
    const res = await h.api('GET', `/cob/${txid}`, token);
    expect(res.statusCode).toBe(200);
    expect(validateCob(res.json())).toBe(true);
    const other = await h.createAccount();
    const otherToken = await h.tokenFor(other.id);
    expect((await h.api('GET', `/cob/${txid}`, otherToken)).statusCode).toBe(404);
    expect((await h.api('GET', `/cob/${newTxid()}`, token)).statusCode).toBe(404);
  });

  it('cancels an ATIVA cob (revision 1), refuses other changes and a second cancel, and the location disappears', async () => {
    const txid = newTxid();
    const created = (await put(txid, cobBody())).json();
    const bad = await h.api('PATCH', `/cob/${txid}`, token, { status: 'CONCLUIDA' });
    expect(bad.statusCode).toBe(400);
    const change = await h.api('PATCH', `/cob/${txid}`, token, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } });
    expect(change.statusCode).toBe(400);
    const res = await h.api('PATCH', `/cob/${txid}`, token, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expect(validateCob(res.json())).toBe(true);
    expect((await h.api('PATCH', `/cob/${txid}`, token, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).statusCode).toBe(400);
    const pay = await h.api('POST', `/sandbox/charges/${txid}/pay`, token, {});
    expect(pay.statusCode).toBe(409);
    const locationId = /qr\/v2\/([0-9a-f]{32})/.exec(created.location)![1];
    expect((await h.app.inject({ method: 'GET', url: `/qr/v2/${locationId}` })).statusCode).toBe(404);
  });
});

describe('cob payment and expiry', () => {
  it('waits without a scenario header; pays by txid once with the RECEIVE v2 event; another amount only with modalidadeAlteracao 1', async () => {
    const txid = newTxid();
    await put(txid, cobBody());
    await h.advance(5);
    expect((await h.api('GET', `/cob/${txid}`, token)).json().status).toBe('ATIVA');
    expect((await h.api('POST', `/sandbox/charges/${txid}/pay`, token, { amount: 100 })).statusCode).toBe(400);
    const before = await h.balance(account.id);
    const payer = { name: 'Maria Pagadora', document: cpf(8080), ispb: '60701190' };
    const res = await h.api('POST', `/sandbox/charges/${txid}/pay`, token, { payer });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'CONFIRMED', originalAmount: 123.45, endToEndId: expect.stringMatching(/^E60701190/) });
    expect((await h.balance(account.id)).available).toBeCloseTo(before.available + 123.45, 2);
    expect((await h.api('GET', `/cob/${txid}`, token)).json().status).toBe('CONCLUIDA');
    const event = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(event.type).toBe('cash_in');
    expect(event.payload).toEqual({
      type: 'RECEIVE',
      data: {
        id: res.json().id,
        txId: txid,
        status: 'LIQUIDATED',
        payment: { amount: '123.45', currency: 'BRL' },
        endToEndId: res.json().endToEndId,
        debtorAccount: { name: 'Maria Pagadora', document: expect.stringMatching(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/) },
      },
    });
    expect((await h.api('POST', `/sandbox/charges/${txid}/pay`, token, { payer })).statusCode).toBe(409);

    const open = newTxid();
    await put(open, cobBody({ valor: { original: '10.00', modalidadeAlteracao: 1 } }));
    const paid = await h.api('POST', `/sandbox/charges/${open}/pay`, token, { amount: 12.5 });
    expect(paid.json()).toMatchObject({ status: 'CONFIRMED', originalAmount: 12.5 });
  });

  it('with a success header a simulated payer pays it after the settlement delay', async () => {
    const txid = newTxid();
    await put(txid, cobBody(), { 'x-sandbox-scenario': 'success' });
    await h.advance(1);
    expect((await h.api('GET', `/cob/${txid}`, token)).json().status).toBe('CONCLUIDA');
  });

  it('expires to REMOVIDA_PELO_PSP and then refuses payment', async () => {
    const txid = newTxid();
    await put(txid, cobBody({ calendario: { expiracao: 600 } }));
    await h.advance(600);
    const cob = (await h.api('GET', `/cob/${txid}`, token)).json();
    expect(cob.status).toBe('REMOVIDA_PELO_PSP');
    expect((await h.api('POST', `/sandbox/charges/${txid}/pay`, token, {})).statusCode).toBe(409);
  });
});

describe('GET /qr/v2/{locationId}', () => {
  it('answers the payload as a JWS signed with a key of the JWKS, 404 for an unknown location', async () => {
    const txid = newTxid();
    const t0 = h.c.clock.now();
    const cob = (await put(txid, cobBody())).json();
    const locationId = /qr\/v2\/([0-9a-f]{32})/.exec(cob.location)![1];
    await h.advance(30);
    const res = await h.app.inject({ method: 'GET', url: `/qr/v2/${locationId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/jose/);
    const jwks = (await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const { payload, protectedHeader } = await compactVerify(res.body, createLocalJWKSet(jwks));
    expect(protectedHeader.alg).toBe('ES256');
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      txid,
      revisao: 0,
      calendario: { criacao: t0.toISOString(), apresentacao: new Date(t0.getTime() + 30_000).toISOString(), expiracao: 3600 },
      devedor: { cpf: cpf(555), nome: 'Fulano de Tal' },
      valor: { original: '123.45', modalidadeAlteracao: 0 },
      chave: account.pixKey,
      solicitacaoPagador: 'Serviço realizado.',
      infoAdicionais: [{ nome: 'Campo 1', valor: 'Informação Adicional1 do PSP-Recebedor' }],
      status: 'ATIVA',
    });
    expect((await h.app.inject({ method: 'GET', url: `/qr/v2/${'0'.repeat(32)}` })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: '/qr/v2/nope' })).statusCode).toBe(404);
  });

  it('serves the location of a cash-in, whose BR Code names it', async () => {
    const created = (
      await h.api('POST', '/api/pix/cash-in', token, {
        transaction: { value: 9.99, description: 'Café', externalId: 'loc-cash-in' },
        payer: { fullName: 'Ana', document: cpf(42) },
      }, { 'x-sandbox-scenario': 'pending' })
    ).json();
    const locationId = new RegExp(`${h.c.config.publicHost}/qr/v2/([0-9a-f]{32})`).exec(created.pixCode)![1];
    const res = await h.app.inject({ method: 'GET', url: `/qr/v2/${locationId}` });
    const jwks = (await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const { payload } = await compactVerify(res.body, createLocalJWKSet(jwks));
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({
      txid: created.transactionId.replaceAll('-', ''),
      valor: { original: '9.99', modalidadeAlteracao: 0 },
      chave: account.pixKey,
      status: 'ATIVA',
    });
  });
});
