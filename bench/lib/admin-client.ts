/**
 * The benchmark's HTTP client of a running service (in-process or a separate process): admin calls
 * and the accounts and identities a load needs, made through the public admin API as an operator
 * would.
 */
import { Pool } from 'undici';
import { cnpj } from '../../test/factories.ts';
import type { LoadAccount, TokenIdentity } from './requests.ts';

export function adminClient(origin: string, adminToken: string) {
  const http = new Pool(origin, { connections: 8, pipelining: 1 });

  async function call(method: 'GET' | 'POST' | 'PATCH', path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await http.request({
      method,
      path,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** An account with generous limits, funded, with a certificate and credentials. */
  async function makeIdentity(i: number, funds: number, clientSecret?: string) {
    const account = await call('POST', '/admin/accounts', adminToken, { name: `Bench ${i}`, document: cnpj(1000 + i * 7 + Math.floor(Math.random() * 1e6)) });
    const id = account.id as number;
    await call('PATCH', `/admin/accounts/${id}/limits`, adminToken, { perTransaction: 1_000_000, daily: 999_999_999, nightly: 999_999_999 });
    if (funds > 0) await call('POST', '/sandbox/deposits', adminToken, { accountId: id, amount: funds });
    const cert = await call('POST', `/admin/accounts/${id}/certificates`, adminToken, {});
    const creds = await call('POST', `/admin/accounts/${id}/credentials`, adminToken, clientSecret ? { clientSecret } : {});
    return { id, cert: encodeURIComponent(cert.certificatePem as string), clientId: creds.clientId as string, clientSecret: creds.clientSecret as string };
  }

  /** fn(0..n-1), 8 at a time. */
  async function each<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
    const out: T[] = new Array(n);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(8, n) }, async () => {
        for (let i = next++; i < n; i = next++) out[i] = await fn(i);
      }),
    );
    return out;
  }

  /** n funded accounts and a bearer token for each. */
  const makeAccounts = (n: number, funds: number): Promise<LoadAccount[]> =>
    each(n, async (i) => {
      const who = await makeIdentity(i, funds);
      const token = await call('POST', '/api/auth/token', '', { clientId: who.clientId, clientSecret: who.clientSecret }, { 'x-ssl-client-cert': who.cert });
      return { id: who.id, token: token.access_token as string };
    });

  /** n unfunded accounts with a certificate and credentials (secrets generated, or chosen by `secret`). */
  const makeIdentities = (n: number, secret?: (i: number) => string): Promise<TokenIdentity[]> =>
    each(n, async (i) => {
      const { cert, clientId, clientSecret } = await makeIdentity(i, 0, secret?.(i));
      return { cert, clientId, clientSecret };
    });

  /** The ledger's invariants as the operator checks them (GET /admin/ledger/check). */
  async function ledgerFindings(): Promise<string[]> {
    const check = await call('GET', '/admin/ledger/check', adminToken);
    if (check.ok) return [];
    return [
      `ledger check failed: ${check.unbalancedJournals.count} unbalanced journals, drift on ${check.drift.count} accounts ` +
        `${JSON.stringify(check.drift.items.slice(0, 3))}, ${check.negativeBalances.count} negative balances`,
    ];
  }

  return { call, makeAccounts, makeIdentities, ledgerFindings, close: () => http.close() };
}
