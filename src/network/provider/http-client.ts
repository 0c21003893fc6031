import { Agent, request } from 'undici';
import { outgoingTraceparent } from '../../observability/trace-context.ts';

/**
 * HTTP to the provider: one undici Agent presenting our client certificate on every TLS connection
 * (mutual TLS; a private CA when the provider's server certificate needs one), JSON in and out,
 * every wait bounded (connect, headers, body, and the whole exchange). A failure to get any answer
 * throws ProviderTransportError; every HTTP status, 4xx and 5xx alike, is an answer.
 */
export interface HttpAnswer {
  status: number;
  body: unknown;
}

export class ProviderTransportError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ProviderTransportError';
  }
}

export interface ProviderHttpOptions {
  baseUrl: string;
  tls: { cert: string; key: string; ca?: string };
  /** The longest one exchange may take, connection included. */
  timeoutMs: number;
}

export function createProviderHttp(options: ProviderHttpOptions) {
  const agent = new Agent({
    connect: { cert: options.tls.cert, key: options.tls.key, ...(options.tls.ca ? { ca: options.tls.ca } : {}), timeout: Math.min(5_000, options.timeoutMs) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
  });

  async function send(input: { method: 'GET' | 'POST'; path: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number }): Promise<HttpAnswer> {
    const url = `${options.baseUrl}${input.path}`;
    let answer;
    try {
      answer = await request(url, {
        method: input.method,
        dispatcher: agent,
        // W3C trace context: the traced request this call serves (its trace id, a new span id), else a fresh trace.
        headers: { accept: 'application/json', ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}), traceparent: outgoingTraceparent(), ...input.headers },
        ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
        signal: AbortSignal.timeout(input.timeoutMs ?? options.timeoutMs),
      });
    } catch (error) {
      throw new ProviderTransportError(`${input.method} ${input.path}: ${describe(error)}`, error);
    }
    let text: string;
    try {
      text = await answer.body.text();
    } catch (error) {
      throw new ProviderTransportError(`${input.method} ${input.path}: the answer was cut (${describe(error)})`, error);
    }
    let body: unknown = undefined;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        // A 5xx from a proxy is often HTML: the status says enough; a 2xx that is not JSON is not an answer we can use.
        if (answer.statusCode < 300) throw new ProviderTransportError(`${input.method} ${input.path}: the answer is not JSON`);
        body = { message: text.slice(0, 200) };
      }
    }
    return { status: answer.statusCode, body };
  }

  return {
    send,
    close: () => agent.close(),
  };
}

function describe(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  const code = e?.code ?? e?.cause?.code;
  return [code, e?.message ?? String(error)].filter(Boolean).join(' ');
}

export type ProviderHttp = ReturnType<typeof createProviderHttp>;
