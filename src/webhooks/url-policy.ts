import { isIP } from 'node:net';
import type { WebhookHeader } from '../db/schema/webhooks.ts';
import { DomainError } from '../domain/errors/domain-error.ts';
import { checkAddress, checkAddresses } from './address-policy.ts';
import type { HostResolver } from './host-resolver.ts';

/** Header names a registration may not set: the transport and the signature own them. */
export const BLOCKED_HEADER_NAMES = ['host', 'content-length', 'connection', 'transfer-encoding', 'content-type', 'user-agent'] as const;
export const MAX_HEADERS = 5;
export const MAX_URL_LENGTH = 2048;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export type Mode = 'sandbox' | 'production';

/** A broken rule of a registration: the field (JSON path) and its text without the field's name. */
export interface FieldProblem {
  path: Array<string | number>;
  message: string;
}

/** `headers[0].key` for ['headers', 0, 'key']. */
export const fieldName = (path: Array<string | number>) =>
  path.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');

/**
 * The registration URL rules; answers the normalised URL or the problems, one text per field.
 * HTTPS only; the sandbox also accepts plain HTTP to localhost and 127.0.0.1 (any port), so a
 * developer's local receiver works. No credentials in the URL (they would leak into logs).
 * Production also refuses localhost names and literal private addresses here; `checkWebhookHost`
 * then resolves names (registration), and the transport checks them again at each delivery.
 */
export function checkWebhookUrl(raw: string, mode: Mode, field = 'url'): { ok: true; url: string } | { ok: false; problems: string[] } {
  const checked = webhookUrlRule(raw, mode);
  return checked.ok ? checked : { ok: false, problems: [`${field} ${checked.message}`] };
}

/** `checkWebhookUrl`'s rule, its text without the field's name (the schema keyword names the field). */
export function webhookUrlRule(raw: string, mode: Mode): { ok: true; url: string } | { ok: false; message: string } {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters long` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute URL' };
  }
  const localHttp = url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
  if (url.protocol !== 'https:' && !(mode === 'sandbox' && localHttp)) {
    return { ok: false, message: mode === 'sandbox' ? 'must use HTTPS (the sandbox also accepts http://localhost and http://127.0.0.1)' : 'must use HTTPS' };
  }
  if (url.username || url.password) return { ok: false, message: 'must not contain credentials' };
  if (mode === 'production') {
    // "localhost." is localhost: a fully qualified name's trailing dot changes nothing for a resolver.
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
    if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, message: 'must not point to localhost' };
    if (isIP(host)) {
      const verdict = checkAddress(host);
      if (!verdict.allowed) return { ok: false, message: `must not point to a private address: ${verdict.reason}` };
    }
  }
  url.hash = '';
  return { ok: true, url: url.href };
}

/**
 * Which webhook URLs this service accepts, chosen once by the container from the mode, so the
 * services that register and resend never ask which mode runs: the URL rules, then what only
 * resolving the host can tell (production; the sandbox resolves nothing).
 */
export interface WebhookUrlPolicy {
  checkUrl(raw: string, field?: string): { ok: true; url: string } | { ok: false; problems: string[] };
  /** Problems found by resolving the (normalised) URL's host; a network call: never inside a transaction. */
  checkHost(normalisedUrl: string, field?: string): Promise<string[]>;
}

export function webhookUrlPolicy(mode: Mode, resolver: HostResolver): WebhookUrlPolicy {
  return {
    checkUrl: (raw, field) => checkWebhookUrl(raw, mode, field),
    checkHost: mode === 'production' ? (url, field) => checkWebhookHost(url, resolver, field) : async () => [],
  };
}

/** How long a registration waits for the host name to resolve. */
export const RESOLVE_TIMEOUT_MS = 5_000;
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * Production registration (issue 10 item 10): resolves the URL's host name now and refuses it, with
 * the delivery guard's reason, when any address it resolves to is not public; a name that does not
 * exist is refused too. A resolver that fails or does not answer in time is not the caller's fault:
 * 503 with Retry-After. Run it outside any database transaction (it is a network call).
 */
export async function checkWebhookHost(normalisedUrl: string, resolve: HostResolver, field = 'url'): Promise<string[]> {
  const host = new URL(normalisedUrl).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return []; // literal addresses were judged by checkWebhookUrl
  let timer: NodeJS.Timeout | undefined;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${RESOLVE_TIMEOUT_MS} ms`)), RESOLVE_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    if (NO_SUCH_NAME.has((error as { code?: string }).code ?? '')) return [`${field} host ${host} does not resolve to any address`];
    throw new DomainError(
      'SERVICE_UNAVAILABLE',
      { retryAfterSeconds: 5 },
      `The host ${host} could not be resolved right now (${(error as Error).message}); retry shortly.`,
    );
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return [`${field} host ${host} does not resolve to any address`];
  const verdict = checkAddresses(addresses);
  return verdict.allowed ? [] : [`${field} must not point to a private address: ${host} resolves to one (${verdict.reason})`];
}

/** The custom header rules: at most 5, HTTP token names, no blocked or duplicate names, no line breaks. */
export function checkWebhookHeaders(headers: WebhookHeader[]): string[] {
  return webhookHeaderProblems(headers).map((p) => `${fieldName(p.path)} ${p.message}`);
}

/** `checkWebhookHeaders`' rules by field; entries that are not `{ key, value }` strings are left to the schema. */
export function webhookHeaderProblems(headers: unknown[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (headers.length > MAX_HEADERS) problems.push({ path: ['headers'], message: `must have at most ${MAX_HEADERS} items` });
  const seen = new Set<string>();
  headers.forEach((header, i) => {
    const { key, value } = (header ?? {}) as { key?: unknown; value?: unknown };
    if (typeof key === 'string') {
      const name = key.toLowerCase();
      const at = ['headers', i, 'key'];
      if (!TOKEN.test(key)) {
        problems.push({ path: at, message: "must be a valid HTTP header name (letters, digits and !#$%&'*+.^_`|~-, at most 100)" });
      } else if ((BLOCKED_HEADER_NAMES as readonly string[]).includes(name)) {
        problems.push({ path: at, message: `${key} is a blocked header name (${BLOCKED_HEADER_NAMES.join(', ')})` });
      } else if (name.startsWith('webhook-')) {
        problems.push({ path: at, message: `${key} is reserved for the webhook signature (webhook-id, webhook-timestamp, webhook-signature)` });
      } else if (seen.has(name)) {
        problems.push({ path: at, message: `${key} appears more than once` });
      }
      seen.add(name);
    }
    if (typeof value === 'string' && !/^[\t\x20-\x7e]{0,1000}$/.test(value)) {
      problems.push({ path: ['headers', i, 'value'], message: 'must be at most 1000 printable ASCII characters (no line breaks)' });
    }
  });
  return problems;
}

/**
 * The registration rules that need no network (URL and headers), by field, for the schema keyword
 * `x-webhook-registration`: reported with the schema's own errors in one answer. Name resolution
 * (production) is a lookup, not a format: it runs after the schema, in the registration service.
 */
export function webhookRegistrationProblems(body: { url?: unknown; headers?: unknown }, mode: Mode): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (typeof body.url === 'string') {
    const checked = webhookUrlRule(body.url, mode);
    if (!checked.ok) problems.push({ path: ['url'], message: checked.message });
  }
  if (Array.isArray(body.headers)) problems.push(...webhookHeaderProblems(body.headers));
  return problems;
}
