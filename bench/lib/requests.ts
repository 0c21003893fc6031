/**
 * What the load generator sends, identical for the service and the reference server: the same
 * method, path, headers and JSON body (so the same bytes to read and parse).
 */
import { cpf } from '../../test/factories.ts';

/** An account as the load sees it: how to call as it (its bearer token). */
export interface LoadAccount {
  id: number;
  token: string;
}

export interface TokenIdentity {
  /** Percent-encoded PEM, as a TLS-terminating proxy forwards it. */
  cert: string;
  clientId: string;
  clientSecret: string;
}

export type Plan =
  | { kind: 'cash-out'; label: string; accounts: LoadAccount[] }
  | { kind: 'balance'; accounts: LoadAccount[] }
  | { kind: 'token'; identities: TokenIdentity[] };

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** For cash-outs: the externalId, remembered when answered 201. */
  externalId?: string;
}

/** The n-th call of client k (n counts across all clients of the run). */
export function callFor(plan: Plan, run: string, k: number, n: number): Call {
  switch (plan.kind) {
    case 'cash-out': {
      const account = plan.accounts[(k + n) % plan.accounts.length]!;
      const externalId = `${plan.label}-${run}-${k}-${n}`;
      return {
        method: 'POST',
        path: '/api/pix/cash-out',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          value: 0.01,
          externalId,
          details: { key: `bench${n % 1000}@example.com`, keyType: 'EMAIL', name: 'Bench', document: cpf(n % 100_000) },
        }),
        externalId,
      };
    }
    case 'balance': {
      const account = plan.accounts[(k + n) % plan.accounts.length]!;
      return { method: 'GET', path: '/api/balance', headers: { authorization: `Bearer ${account.token}` } };
    }
    case 'token': {
      const id = plan.identities[(k + n) % plan.identities.length]!;
      return {
        method: 'POST',
        path: '/api/auth/token',
        headers: { 'content-type': 'application/json', 'x-ssl-client-cert': id.cert },
        body: JSON.stringify({ clientId: id.clientId, clientSecret: id.clientSecret }),
      };
    }
  }
}
