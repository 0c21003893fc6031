import { makeClientCertificate } from '../../src/services/auth/x509.ts';
import type { Harness } from '../harness.ts';

const DAY = 86_400_000;

/** A real certificate valid from `from` to `to` (offsets in ms from the harness clock). */
export async function certificate(h: Harness, window: { from?: number; to?: number } = {}) {
  const now = h.clock.now().getTime();
  const made = await makeClientCertificate({
    commonName: 'test client',
    notBefore: new Date(now + (window.from ?? -DAY)),
    notAfter: new Date(now + (window.to ?? 365 * DAY)),
  });
  return made.certificatePem;
}

/** Links a PEM to an account through the admin route; answers its fingerprint. */
export async function register(h: Harness, accountId: number, pem: string): Promise<string> {
  const res = await h.admin('POST', `/admin/accounts/${accountId}/certificates`, { pem });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return res.json().fingerprint;
}

export async function credentials(h: Harness, accountId: number, body: { scopes?: string[]; clientSecret?: string } = {}) {
  const res = await h.admin('POST', `/admin/accounts/${accountId}/credentials`, body);
  if (res.statusCode !== 201) throw new Error(`credentials: ${res.statusCode} ${res.body}`);
  return res.json() as { clientId: string; clientSecret: string; scopes: string[] };
}

/** An account with a registered valid certificate and credentials: everything a token request needs. */
export async function client(h: Harness, scopes?: string[]) {
  const account = await h.createAccount();
  const pem = await certificate(h);
  const fingerprint = await register(h, account.id, pem);
  const creds = await credentials(h, account.id, scopes ? { scopes } : {});
  return { account, pem, fingerprint, ...creds };
}

export function requestToken(h: Harness, certHeader: string | undefined, body: unknown) {
  return h.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: certHeader === undefined ? {} : { 'x-ssl-client-cert': certHeader },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}
