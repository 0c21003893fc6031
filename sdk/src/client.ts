import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { Agent, fetch as undiciFetch } from 'undici';
import { accountResources, type AccountResources } from './account-resources.ts';
import type { paths } from './openapi.ts';
import { sandboxResources, type SandboxResources } from './sandbox-resources.ts';
import { testClockResources, type TestClockResources } from './test-clocks.ts';
import { copyOf, IDEMPOTENCY_KEY_ROUTES, retrying, type RetryOptions } from './transport.ts';
import { TokenSource } from './tokens.ts';
import { accountWebhooks, type AccountWebhooks } from './webhooks.ts';

export interface PixClientOptions {
  /** The service's public URL, e.g. https://pix.example.com (its PUBLIC_URL). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The client certificate (PEM) the credentials are registered with; `key` is needed for TLS. */
  certificate: { cert: string; key?: string };
  /**
   * The certificate(s) (PEM) to trust for the service's own TLS certificate when it is not signed by a
   * public CA (a self-signed test deployment, deploy/make-dev-certs.sh). Default: Node's trusted CAs.
   */
  ca?: string | string[];
  /**
   * How the certificate reaches the service: `tls` presents it in the TLS handshake; `header` sends it
   * in X-SSL-Client-Cert (the sandbox over http, or a proxy that forwards it). Default: `tls` for
   * https, `header` for http.
   */
  certificateTransport?: 'tls' | 'header';
  /** `api` (POST /api/auth/token, JSON) or `oauth` (POST /oauth/token, RFC 6749). Default `api`. */
  tokenEndpoint?: 'api' | 'oauth';
  /** Scopes to ask for (default: every scope of the credentials). */
  scopes?: string[];
  retry?: RetryOptions;
  /** The account's `whsec_` secret: enables `client.webhooks.verify`. */
  webhookSecret?: string;
  /** Milliseconds since the epoch; token renewal is judged on it (tests move it). */
  now?: () => number;
}

/**
 * The account API by operation (`balance.get()`, `cashOut.create(...)`, `transactions.list(...)`, ...),
 * each answering the data or throwing PixApiError / PixNetworkError, and the path-string client
 * underneath as `http`.
 */
export interface PixClient extends AccountResources {
  /** Typed calls to every route (openapi-fetch): `{ data, error, response }`, `error` typed by the family's envelope. */
  readonly http: Client<paths>;
  /** The current access token (renewed 30 s before it expires; one renewal at a time). */
  accessToken(): Promise<string>;
  /** The account's webhook registrations, resends, and signature verification (with `webhookSecret`). */
  readonly webhooks: AccountWebhooks;
  /** The sandbox's simulated network, acting for this account (sandbox mode only). */
  readonly sandbox: SandboxResources;
  /** The account's own test clocks (sandbox mode only). */
  readonly clocks: TestClockResources;
}

/**
 * A client for both families: it gets tokens with the certificate and the credentials, renews them
 * 30 s before expiry, retries safe and idempotent requests on 429, 503 and network failures, and
 * sends the certificate with every call (tokens are certificate-bound).
 */
export function createPixClient(options: PixClientOptions): PixClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = options.certificateTransport ?? (baseUrl.startsWith('https:') ? 'tls' : 'header');
  if (transport === 'tls' && !options.certificate.key) throw new TypeError('certificate.key is needed to present the certificate over TLS');
  const certificateHeader = transport === 'header' ? encodeURIComponent(options.certificate.cert) : undefined;
  const raw = rawFetch({
    ...(transport === 'tls' ? { cert: options.certificate.cert, key: options.certificate.key! } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
  }, certificateHeader ? { 'x-ssl-client-cert': certificateHeader } : {});
  const send = retrying(raw, options.retry);

  const tokens = new TokenSource({
    baseUrl,
    endpoint: options.tokenEndpoint ?? 'api',
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    ...(options.scopes ? { scopes: options.scopes } : {}),
    send: retrying(raw, options.retry, () => true),
    now: options.now ?? Date.now,
  });

  const http = createClient<paths>({
    baseUrl,
    fetch: async (request) => {
      const token = await tokens.get();
      // Where the route takes an idempotency key, one is always sent: a lost answer can then be retried.
      if (request.method === 'POST' && !request.headers.has('x-idempotency-key') && IDEMPOTENCY_KEY_ROUTES.some((r) => r.test(new URL(request.url).pathname))) {
        request.headers.set('x-idempotency-key', randomUUID());
      }
      const spare = copyOf(request);
      request.headers.set('authorization', `Bearer ${token}`);
      const response = await send(request);
      // A token refused before its time (a rotated key, clock skew): renew once and send again.
      if (response.status !== 401) return response;
      tokens.invalidate(token);
      spare.headers.set('authorization', `Bearer ${await tokens.get()}`);
      return send(spare);
    },
  });

  return {
    ...accountResources(http),
    http,
    accessToken: () => tokens.get(),
    webhooks: accountWebhooks(http, options.webhookSecret),
    sandbox: sandboxResources(http),
    clocks: testClockResources(http),
  };
}

/**
 * Sends a request as it is, with `headers` set on it, through a TLS connection presenting `connect`'s
 * certificate and trusting its `ca` when given (undici), else through the global fetch.
 */
export function rawFetch(connect: { cert?: string; key?: string; ca?: string | string[] }, headers: Record<string, string> = {}) {
  const dispatcher = Object.keys(connect).length > 0 ? new Agent({ connect }) : undefined;
  return async (request: Request): Promise<Response> => {
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
    if (!dispatcher) return fetch(request);
    const body = request.body ? await request.arrayBuffer() : undefined;
    return (await undiciFetch(request.url, { method: request.method, headers: [...request.headers], body, dispatcher, signal: request.signal })) as unknown as Response;
  };
}
