import createClient, { type Client } from 'openapi-fetch';
import { adminResources, type AdminResources } from './admin-resources.ts';
import { rawFetch } from './client.ts';
import type { paths } from './openapi.ts';
import { sandboxResources, type SandboxResources } from './sandbox-resources.ts';
import { testClockResources, type TestClockResources } from './test-clocks.ts';
import { retrying, type RetryOptions } from './transport.ts';

export interface PixAdminClientOptions {
  /** The service's public URL, e.g. https://pix.example.com (its PUBLIC_URL). */
  baseUrl: string;
  /** The operator token (ADMIN_TOKEN; the sandbox prints the one it generated). */
  adminToken: string;
  /** The certificate(s) (PEM) to trust for the service's TLS certificate when no public CA signed it. */
  ca?: string | string[];
  retry?: RetryOptions;
}

/**
 * The operator API by operation (`accounts.list()`, `webhooks.delete(id)`, `network.status()`, ...),
 * each answering the data or throwing PixApiError (`code` `HTTP_<status>`) / PixNetworkError; the
 * sandbox's routes with the admin token (`sandbox.deposits.create({ accountId, ... })`); the
 * path-string client underneath as `http`.
 */
export interface PixAdminClient extends AdminResources {
  /**
   * Typed calls to every route (openapi-fetch), sent with the admin token: the operator routes under
   * `/admin` (and the sandbox's). `error` is the short envelope `{statusCode, message, error}`;
   * `unwrap` turns a refusal into a PixApiError whose `code` is `HTTP_<status>`.
   */
  readonly http: Client<paths>;
  /** The sandbox's routes (sandbox mode only), on behalf of the account named by `accountId`. */
  readonly sandbox: SandboxResources;
  /** Per-account test clocks, any account's (sandbox mode only). */
  readonly clocks: TestClockResources;
  /** Every item of a paged admin list (`{data, metadata}`), page after page. */
  all<T>(page: (page: number) => Promise<AdminPage<T>>): AsyncGenerator<T, void, undefined>;
}

/** What a paged admin list answers: `page` and `pageSize` in, `{data, metadata}` out. */
export interface AdminPage<T> {
  data: T[];
  metadata: { total: number; page: number; pageSize: number; totalPages: number };
}

/**
 * A client for the operator (admin) API: the admin token on every call, the same retries as the
 * account client (GET, PUT, DELETE and idempotent requests on 429, 503 and network failures) and
 * the same typed errors (PixApiError, PixNetworkError).
 */
export function createPixAdminClient(options: PixAdminClientOptions): PixAdminClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = retrying(rawFetch(options.ca ? { ca: options.ca } : {}, { authorization: `Bearer ${options.adminToken}` }), options.retry);
  const http = createClient<paths>({ baseUrl, fetch: (request) => send(request) });
  return {
    ...adminResources(http),
    http,
    sandbox: sandboxResources(http),
    clocks: testClockResources(http),
    async *all<T>(page: (page: number) => Promise<AdminPage<T>>) {
      for (let n = 1; ; n += 1) {
        const answer = await page(n);
        yield* answer.data;
        if (n >= answer.metadata.totalPages || answer.data.length === 0) return;
      }
    },
  };
}
