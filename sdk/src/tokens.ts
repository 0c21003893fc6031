import { PixApiError } from './errors.ts';

/** Renew this long before the token expires, so no call carries a token about to lapse. */
export const RENEW_BEFORE_MS = 30_000;

interface TokenSourceOptions {
  baseUrl: string;
  endpoint: 'api' | 'oauth';
  clientId: string;
  clientSecret: string;
  scopes?: string[];
  /** Sends a token request (retried like a safe one: asking for a token changes nothing). */
  send: (request: Request) => Promise<Response>;
  now: () => number;
}

/** One access token at a time: reused until 30 s before it expires, then renewed once for all callers. */
export class TokenSource {
  private current: { value: string; expiresAt: number } | undefined;
  private renewal: Promise<string> | undefined;
  /** How many tokens were requested (tests read it). */
  issued = 0;

  constructor(private readonly options: TokenSourceOptions) {}

  get(): Promise<string> {
    const { current } = this;
    if (current && this.options.now() < current.expiresAt - RENEW_BEFORE_MS) return Promise.resolve(current.value);
    this.renewal ??= this.request().finally(() => {
      this.renewal = undefined;
    });
    return this.renewal;
  }

  /** Forgets `token` when it is still the current one (the service refused it). */
  invalidate(token: string): void {
    if (this.current?.value === token) this.current = undefined;
  }

  private async request(): Promise<string> {
    const { baseUrl, endpoint, clientId, clientSecret, scopes } = this.options;
    const request =
      endpoint === 'api'
        ? new Request(`${baseUrl}/api/auth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ clientId, clientSecret }),
          })
        : new Request(`${baseUrl}/oauth/token`, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
            },
            body: new URLSearchParams({ grant_type: 'client_credentials', ...(scopes ? { scope: scopes.join(' ') } : {}) }).toString(),
          });
    const startedAt = this.options.now();
    const response = await this.options.send(request);
    const body = (await response.json().catch(() => undefined)) as { access_token?: string; expires_in?: number } | undefined;
    if (!response.ok || !body?.access_token) throw PixApiError.from(response.status, body, response.headers.get('x-request-id') ?? undefined);
    this.issued += 1;
    this.current = { value: body.access_token, expiresAt: startedAt + (body.expires_in ?? 0) * 1000 };
    return body.access_token;
  }
}
