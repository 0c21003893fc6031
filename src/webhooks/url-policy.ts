import { isIP } from 'node:net';
import type { WebhookHeader } from '../db/schema/webhooks.ts';
import { checkAddress } from './address-policy.ts';

/** Header names a registration may not set: the transport and the signature own them. */
export const BLOCKED_HEADER_NAMES = ['host', 'content-length', 'connection', 'transfer-encoding', 'content-type', 'user-agent'] as const;
export const MAX_HEADERS = 5;
export const MAX_URL_LENGTH = 2048;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export type Mode = 'sandbox' | 'production';

/**
 * The registration URL rules; answers the normalised URL or the problems, one text per field.
 * HTTPS only; the sandbox also accepts plain HTTP to localhost and 127.0.0.1 (any port), so a
 * developer's local receiver works. No credentials in the URL (they would leak into logs).
 * Production also refuses literal private addresses here; names are checked when resolved at
 * delivery time.
 */
export function checkWebhookUrl(raw: string, mode: Mode, field = 'url'): { ok: true; url: string } | { ok: false; problems: string[] } {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, problems: [`${field} must be at most ${MAX_URL_LENGTH} characters long`] };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problems: [`${field} must be an absolute URL`] };
  }
  const localHttp = url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
  if (url.protocol !== 'https:' && !(mode === 'sandbox' && localHttp)) {
    return {
      ok: false,
      problems: [
        mode === 'sandbox'
          ? `${field} must use HTTPS (the sandbox also accepts http://localhost and http://127.0.0.1)`
          : `${field} must use HTTPS`,
      ],
    };
  }
  if (url.username || url.password) return { ok: false, problems: [`${field} must not contain credentials`] };
  if (mode === 'production') {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, problems: [`${field} must not point to localhost`] };
    if (isIP(host)) {
      const verdict = checkAddress(host);
      if (!verdict.allowed) return { ok: false, problems: [`${field} must not point to a private address: ${verdict.reason}`] };
    }
  }
  url.hash = '';
  return { ok: true, url: url.href };
}

/** The custom header rules: at most 5, HTTP token names, no blocked or duplicate names, no line breaks. */
export function checkWebhookHeaders(headers: WebhookHeader[]): string[] {
  const problems: string[] = [];
  if (headers.length > MAX_HEADERS) problems.push(`headers must have at most ${MAX_HEADERS} items`);
  const seen = new Set<string>();
  headers.forEach((header, i) => {
    const name = header.key.toLowerCase();
    if (!TOKEN.test(header.key)) {
      problems.push(`headers[${i}].key must be a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~-, at most 100)`);
    } else if ((BLOCKED_HEADER_NAMES as readonly string[]).includes(name)) {
      problems.push(`headers[${i}].key ${header.key} is a blocked header name (${BLOCKED_HEADER_NAMES.join(', ')})`);
    } else if (name.startsWith('webhook-')) {
      problems.push(`headers[${i}].key ${header.key} is reserved for the webhook signature (webhook-id, webhook-timestamp, webhook-signature)`);
    } else if (seen.has(name)) {
      problems.push(`headers[${i}].key ${header.key} appears more than once`);
    }
    seen.add(name);
    if (!/^[\t\x20-\x7e]{0,1000}$/.test(header.value)) {
      problems.push(`headers[${i}].value must be at most 1000 printable ASCII characters (no line breaks)`);
    }
  });
  return problems;
}
