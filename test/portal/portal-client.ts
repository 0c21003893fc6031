import type { Harness } from '../harness.ts';

interface InjectResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** One request as the client sends it; answered by app.inject or by a real HTTP server. */
interface Sent {
  method: 'GET' | 'POST';
  url: string;
  payload?: string | Buffer;
  headers: Record<string, string>;
  remoteAddress: string;
}
type Transport = (request: Sent) => Promise<InjectResponse>;

/**
 * A browser-like client of the portal over app.inject: keeps cookies, reads each page's CSRF token
 * from its forms, follows nothing by itself (tests see every redirect).
 */
export function portalClient(h: Harness, options: { address?: string; host?: string; lang?: string } = {}) {
  return portalClientOver((request) => h.app.inject(request), options);
}

/** The same client over real HTTP, for a service running in its own process (test/postgres). */
export function portalHttpClient(baseUrl: string, options: { lang?: string } = {}) {
  return portalClientOver(async (request) => {
    const res = await fetch(baseUrl + request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.payload !== undefined ? { body: typeof request.payload === 'string' ? request.payload : new Uint8Array(request.payload) } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const headers: InjectResponse['headers'] = Object.fromEntries(res.headers);
    headers['set-cookie'] = res.headers.getSetCookie();
    return { statusCode: res.status, headers, body: await res.text() };
  }, options);
}

function portalClientOver(send: Transport, options: { address?: string; host?: string; lang?: string } = {}) {
  const jar = new Map<string, string>();
  let csrf = '';

  function remember(res: InjectResponse) {
    const raw = res.headers['set-cookie'];
    for (const line of Array.isArray(raw) ? raw : raw ? [String(raw)] : []) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    const token = /name="_csrf" value="([^"]*)"/.exec(res.body);
    if (token?.[1]) csrf = token[1];
    return res;
  }

  const headers = (extra: Record<string, string> = {}) => ({
    ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
    ...(options.host ? { host: options.host } : {}),
    'accept-language': options.lang ?? 'en',
    ...extra,
  });

  const client = {
    jar,
    get csrf() {
      return csrf;
    },
    async get(url: string, extra?: Record<string, string>) {
      return remember(await send({ method: 'GET', url, headers: headers(extra), remoteAddress: options.address ?? '127.0.0.1' }));
    },
    /** Posts a form; the page's CSRF token is added unless `_csrf` is given (even as ''). */
    async post(url: string, form: Record<string, string> = {}, extra?: Record<string, string>) {
      const body = new URLSearchParams({ _csrf: csrf, ...form }).toString();
      return remember(
        await send({
          method: 'POST',
          url,
          payload: body,
          headers: headers({ 'content-type': 'application/x-www-form-urlencoded', ...extra }),
          remoteAddress: options.address ?? '127.0.0.1',
        }),
      );
    },
    /** Posts a multipart form (as a browser does for a form with a file input); the CSRF token is added. */
    async upload(url: string, fields: Record<string, string>, files: Record<string, { name: string; content: string | Buffer }>) {
      const form = new FormData();
      for (const [name, value] of Object.entries({ _csrf: csrf, ...fields })) form.append(name, value);
      for (const [name, file] of Object.entries(files)) form.append(name, new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)]), file.name);
      const encoded = new Request('http://portal.test/', { method: 'POST', body: form });
      return remember(
        await send({
          method: 'POST',
          url,
          payload: Buffer.from(await encoded.arrayBuffer()),
          headers: headers({ 'content-type': encoded.headers.get('content-type')! }),
          remoteAddress: options.address ?? '127.0.0.1',
        }),
      );
    },
    /** Opens the sign-in page and signs in; throws unless it lands signed in. */
    async signIn(email: string, password: string) {
      await client.get('/portal/sign-in');
      const res = await client.post('/portal/sign-in', { email, password });
      if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
      await client.get(String(res.headers.location));
      return res;
    },
  };
  return client;
}

export const OPERATOR = { email: 'ops@example.com', password: 'correct horse battery' };

/** An operator through the admin API, signed in. */
export async function signedInOperator(h: Harness, options?: Parameters<typeof portalClient>[1]) {
  const created = await h.admin('POST', '/admin/operators', OPERATOR);
  if (created.statusCode !== 201 && created.statusCode !== 409) throw new Error(`operator: ${created.statusCode} ${created.body}`);
  const client = portalClient(h, options);
  await client.signIn(OPERATOR.email, OPERATOR.password);
  return client;
}

/** A member of the account: invited through the admin API, password set on the invitation page, signed in. */
export async function signedInMember(h: Harness, accountId: number, email = `member${accountId}@example.com`, options?: Parameters<typeof portalClient>[1]) {
  const invited = await h.admin('POST', `/admin/accounts/${accountId}/members`, { email });
  if (invited.statusCode !== 201) throw new Error(`invite: ${invited.statusCode} ${invited.body}`);
  const path = new URL(invited.json().invitationUrl).pathname;
  const client = portalClient(h, options);
  await client.get(path);
  const set = await client.post(path, { password: 'a long enough password' });
  if (set.statusCode !== 303) throw new Error(`invitation: ${set.statusCode} ${set.body.slice(0, 300)}`);
  await client.signIn(email, 'a long enough password');
  return client;
}

/** The confirmation's form of "Send a PIX" (its hidden inputs), as a browser would post it. */
export function payoutConfirmationForm(html: string): Record<string, string> {
  const form = html.slice(html.indexOf('action="/portal/payouts"'));
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]));
}

/** The text of a `<dd id=...>` of a page (tags dropped). */
export const detailText = (html: string, id: string) => new RegExp(`id="${id}">(.*?)</dd>`).exec(html)?.[1]?.replace(/<[^>]+>/g, '');
