import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

/**
 * No bad input anywhere gives a 500: every route, called with wrong types, empty and odd bodies,
 * huge strings, odd path values and odd query strings, by an account, by the admin and by nobody.
 */
let h: Harness;
let token: string;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount({ funds: 100 });
  token = await h.tokenFor(account.id);
  const dep = (await h.api('POST', '/sandbox/deposits', token, { amount: 50 })).json();
  ids.tx = dep.transactionId;
  ids.e2e = dep.endToEndId;
  ids.key = account.pixKey;
  ids.account = String(account.id);
});
afterAll(() => h.close());

const huge = 'x'.repeat(20_000);
const DEEP_ARRAY = '['.repeat(5000) + ']'.repeat(5000);
const DEEP_OBJECT = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
const TOO_BIG = `{"x":"${'y'.repeat(1_100_000)}"}`;
const ODD_VALUES: unknown[] = [null, true, 0, -1, 1e308, -0.001, 0.001, 1.005, '', ' ', huge, 'ção😀\u0000', [], [null], {}, { a: { b: { c: [1, 'x'] } } }];
const ODD_PATH = ['x', '0', '-1', '1.5', '99999999999999999999', '1e400', 'NaN', encodeURIComponent(huge.slice(0, 3000)), '%00', encodeURIComponent('ção😀'), 'E' + 'a'.repeat(31), 'D' + '9'.repeat(40)];

/** Bodies built from a valid-looking template: each field in turn replaced by every odd value. */
function mutations(template: Record<string, unknown>): unknown[] {
  const out: unknown[] = [{}, [], 'text', 42, null, { unknownField: huge }];
  const walk = (obj: Record<string, unknown>, set: (patch: (o: Record<string, unknown>) => void) => void) => {
    for (const key of Object.keys(obj)) {
      for (const value of ODD_VALUES) {
        set((o) => {
          o[key] = value;
        });
        out.push(JSON.parse(JSON.stringify(current)));
        reset();
      }
      const child = obj[key];
      if (child && typeof child === 'object' && !Array.isArray(child)) {
        walk(child as Record<string, unknown>, (patch) => set((o) => patch(o[key] as Record<string, unknown>)));
      }
    }
  };
  let current = structuredClone(template);
  const reset = () => (current = structuredClone(template));
  walk(template, (patch) => patch(current));
  return out;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Target {
  method: Method;
  path: (id: string) => string;
  template?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** A path value that passes validation, so body mutations reach the handler (default: the account id). */
  bodyId?: string;
}

const t = (): Record<string, Target> => ({
  authToken: { method: 'POST', path: () => '/api/auth/token', template: { clientId: randomUUID(), clientSecret: 'segredo-123' }, headers: { 'x-ssl-client-cert': 'garbage%ZZ' } },
  oauthToken: { method: 'POST', path: () => '/oauth/token', template: { clientId: randomUUID(), clientSecret: 'segredo-123' }, headers: { 'x-ssl-client-cert': encodeURIComponent('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----') } },
  cashIn: {
    method: 'POST',
    path: () => '/api/pix/cash-in',
    template: {
      transaction: { value: 1, description: 'd', externalId: 'e', expirationTime: 3600, generateQrCode: false },
      payer: { fullName: 'n', document: cpf(3) },
      additionalInfo: { a: 'b' },
      splits: [{ pixKey: 'a@b.co', pixKeyType: 'EMAIL', name: 'n', document: cpf(4), type: 'FIXED', value: 0.5 }],
    },
  },
  cashOut: { method: 'POST', path: () => '/api/pix/cash-out', template: { value: 1, externalId: 'e', description: 'd', details: { key: 'a@b.co', keyType: 'EMAIL', name: 'n', document: cpf(5) } } },
  cashOutQr: { method: 'POST', path: () => '/api/pix/cash-out-qrcode', template: { value: 1, qrCode: '000201' + 'x'.repeat(60), externalId: 'e', description: 'd', name: 'n', document: cpf(6) } },
  refundIn: { method: 'POST', path: (id) => `/api/pix/refund-in/${id}`, bodyId: ids.tx!, template: { refundValue: 1, reason: 'r', externalId: 'e' } },
  resend: { method: 'POST', path: (id) => `/api/resend-webhook/${id}`, bodyId: ids.tx!, template: { url: 'http://127.0.0.1:1/x' } },
  registerWebhook: { method: 'POST', path: () => '/api/webhooks', template: { url: 'https://example.com/h', eventType: 'cash_in', headers: [{ key: 'k', value: 'v' }] } },
  putCob: {
    method: 'PUT',
    path: (id) => `/cob/${id}`,
    bodyId: 'fuzzTxid00000000000000000000001',
    template: { calendario: { expiracao: 3600 }, devedor: { cpf: cpf(7), nome: 'n' }, valor: { original: '1.00', modalidadeAlteracao: 0 }, chave: 'a@b.co', solicitacaoPagador: 's', infoAdicionais: [{ nome: 'n', valor: 'v' }] },
  },
  patchCob: { method: 'PATCH', path: (id) => `/cob/${id}`, bodyId: 'fuzzTxid00000000000000000000001', template: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } },
  putDevolucao: { method: 'PUT', path: (id) => `/pix/${ids.e2e}/devolucao/${id}`, template: { valor: '1.00', natureza: 'ORIGINAL', descricao: 'd' } },
  putDevolucaoE2e: { method: 'PUT', path: (id) => `/pix/${id}/devolucao/abc`, bodyId: ids.e2e!, template: { valor: '1.00' } },
  dictPix: {
    method: 'POST',
    path: () => '/dict/pix',
    template: { pixKey: 'a@b.co', creditorDocument: cpf(8), priority: 'HIGH', description: 'd', expiration: 600, payment: { currency: 'BRL', amount: 1 }, ispbDeny: ['12345678'], paymentFlow: 'f' },
    headers: { 'x-idempotency-key': randomUUID() },
  },
  payCharge: { method: 'POST', path: (id) => `/sandbox/charges/${id}/pay`, bodyId: 'fuzzTxid00000000000000000000001', template: { amount: 1, payer: { name: 'n', document: cpf(9), ispb: '00000000' } } },
  deposit: { method: 'POST', path: () => '/sandbox/deposits', template: { accountId: 1, amount: 1, payer: { name: 'n', document: cpf(10), ispb: '00000000' } } },
  payoutRefund: { method: 'POST', path: (id) => `/sandbox/payouts/${id}/refund`, template: { accountId: 1, amount: 1 } },
  dictKey: { method: 'POST', path: () => '/sandbox/dict/keys', template: { key: 'k@b.co', keyType: 'EMAIL', name: 'n', document: cpf(11), ispb: '00000000', branch: '1', account: '2' } },
  openMed: { method: 'POST', path: () => '/sandbox/med', template: { endToEndId: ids.e2e!, cause: 'SCAM', description: 'd', amount: 1 } },
  transitionMed: { method: 'POST', path: (id) => `/sandbox/med/${id}/transition`, template: { accountId: 1, to: 'RECEIVED', analysisResult: 'APPROVED', analysisDetails: 'x' } },
  advanceClock: { method: 'POST', path: () => '/sandbox/clock/advance', template: { seconds: 1 } },
  createAccount: { method: 'POST', path: () => '/admin/accounts', template: { name: 'n', document: cpf(12), type: 'INDIVIDUAL' } },
  certificates: { method: 'POST', path: (id) => `/admin/accounts/${id}/certificates`, template: { pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' } },
  credentials: { method: 'POST', path: (id) => `/admin/accounts/${id}/credentials`, template: { clientSecret: 'segredo-123', scopes: ['pix:read'] } },
  limits: { method: 'PATCH', path: (id) => `/admin/accounts/${id}/limits`, template: { perTransaction: 1, daily: 2, nightly: 1 } },
  fees: { method: 'PATCH', path: (id) => `/admin/accounts/${id}/fees`, template: { cashIn: { fixed: 0, percent: 1 }, cashOut: { fixed: 1, percent: 0 } } },
  splitFrequency: { method: 'PATCH', path: (id) => `/admin/accounts/${id}/split-frequency`, template: { frequency: 'DAILY' } },
  adminWebhook: { method: 'POST', path: (id) => `/admin/accounts/${id}/webhooks`, template: { eventType: 'cash_in', url: 'https://example.com/h', headers: [{ key: 'k', value: 'v' }] } },
});

const GETS = [
  '/api/balance',
  '/accounts/balances',
  '/api/transactions',
  '/api/med',
  '/api/webhooks',
  '/api/pix/transaction/{id}',
  '/cob/{id}',
  '/dict/pix/{id}',
  '/pix/{e2e}/devolucao/{id}',
  '/qr/v2/{id}',
  '/admin/accounts/{id}',
  '/admin/accounts/{id}/webhooks',
  '/admin/accounts/{id}/webhook-secret',
];
const ODD_QUERIES = [
  'page=0&size=0',
  'page=-1&size=abc',
  'page=1e400&size=99999999999999999999',
  'status=X&type=Y',
  'startDate=2026-13-45&endDate=2026-02-30',
  'startDate=2026-11-20T99:99:99Z',
  'startDate=2020-01-01&endDate=2030-01-01',
  'isReconciled=maybe&pageSize=0',
  `externalId=${encodeURIComponent(huge.slice(0, 3000))}`,
  'endToEndId=&externalId=',
  'page[]=1&size[a]=2',
  'startDate=0000-00-00',
];

type Caller = 'account' | 'admin' | 'nobody';
const authFor = (who: Caller): Record<string, string> =>
  who === 'account' ? { authorization: `Bearer ${token}` } : who === 'admin' ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {};

// Each call from its own address: the wrong-secret counters (per address) would otherwise lock the
// admin routes after ten unauthenticated calls, and the rest of the run would only meet 429s.
const anyAddress = () => `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

async function expectNo500(method: Method, url: string, headers: Record<string, string>, payload?: unknown, raw?: string) {
  const res = await h.app.inject({
    method,
    url,
    remoteAddress: anyAddress(),
    headers: { ...headers, ...(raw !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(raw !== undefined ? { payload: raw } : payload !== undefined ? { payload: JSON.stringify(payload), headers: { ...headers, 'content-type': 'application/json' } } : {}),
  });
  expect(res.statusCode, `${method} ${url.slice(0, 120)} ${JSON.stringify(payload)?.slice(0, 200)} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
  return res;
}

describe('no bad input gives a 500', () => {
  for (const name of Object.keys(t())) {
    it(`${name}: wrong types, empty and odd bodies, odd path values`, async () => {
      const real = t()[name]!; // built after beforeAll, with the real ids
      const template = real.template ?? {};
      const pathIds = [ids.tx!, ids.account!, ...ODD_PATH];
      for (const who of ['account', 'admin', 'nobody'] as const) {
        const headers = { ...authFor(who), ...(real.headers ?? {}) };
        for (const body of mutations(template)) {
          const headersFresh = real.headers?.['x-idempotency-key'] ? { ...headers, 'x-idempotency-key': randomUUID() } : headers;
          await expectNo500(real.method, real.path(real.bodyId ?? ids.account!), headersFresh, body);
        }
        for (const id of pathIds) await expectNo500(real.method, real.path(id), headers, template);
        for (const raw of ['', '{', 'null', '"x"', '[1,2', '{"a":1}{"b":2}', '\u0000', `{"x":"${huge}"}`, DEEP_ARRAY, DEEP_OBJECT, TOO_BIG]) {
          await expectNo500(real.method, real.path(real.bodyId ?? ids.account!), headers, undefined, raw);
        }
        // Odd headers: wrong content type, garbage scenario, garbage idempotency key and certificate.
        for (const extra of [
          { 'content-type': 'text/plain' },
          { 'x-sandbox-scenario': huge.slice(0, 2000) },
          { 'x-sandbox-scenario': 'error:' },
          { 'x-idempotency-key': 'not-a-uuid' },
          { 'x-ssl-client-cert': huge },
          { 'x-ssl-client-cert': '%E0%A4%A' },
          { authorization: 'Bearer ' + huge.slice(0, 4000) },
          { authorization: 'Basic Zm9vOmJhcg==' },
        ]) {
          const res = await h.app.inject({ method: real.method, url: real.path(real.bodyId ?? ids.account!), remoteAddress: anyAddress(), headers: { ...headers, ...extra }, payload: JSON.stringify(template) });
          expect(res.statusCode, `${name} ${JSON.stringify(extra).slice(0, 80)} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
        }
      }
    });
  }

  // Thousands of requests one after another: CPU-bound, so the bound is for a busy machine (issue 24).
  it('GET routes: odd path values and odd query strings', { timeout: 180_000 }, async () => {
    for (const who of ['account', 'admin', 'nobody'] as const) {
      for (const template of GETS) {
        for (const id of [ids.tx!, ids.account!, ...ODD_PATH]) {
          const url = template.replace('{id}', id).replace('{e2e}', id);
          for (const q of ['', ...ODD_QUERIES]) await expectNo500('GET', q ? `${url}?${q}` : url, authFor(who));
        }
      }
    }
  });
});
