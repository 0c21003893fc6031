import type { Client } from 'openapi-fetch';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components, paths } from './openapi.ts';
import type { AnswerOf, BodyOf, RequestOptions } from './operation-types.ts';
import { unwrap } from './unwrap.ts';

type Schemas = components['schemas'];
/** Every body the service sends to a webhook URL (the document's `webhooks` section). */
export type WebhookEvent = Schemas['TransactionEvent'] | Schemas['ReceiveEvent'] | Schemas['RefundEvent'] | Schemas['TransferEvent'] | Schemas['MedEvent'];

export { WebhookVerificationError };

export interface Webhooks {
  /**
   * The event, once `webhook-signature` is proven to be the account secret's HMAC of this exact body
   * and `webhook-timestamp` is within 5 minutes; throws WebhookVerificationError otherwise. Pass the
   * raw body as received (string or bytes), never a re-serialised object.
   */
  verify(payload: string | Buffer, headers: Record<string, string | string[] | undefined> | Headers): WebhookEvent;
}

export type WebhookRegistrationInput = BodyOf<'registerAccountWebhook'>;
export type WebhookList = AnswerOf<'listWebhooks'>;
export type WebhookResend = AnswerOf<'resendWebhook'>;

/** The account's webhooks: its registrations (`/api/webhooks`, when WEBHOOK_ROUTES_ENABLED), resends, and verification. */
export interface AccountWebhooks extends Webhooks {
  /** GET /api/webhooks: the account's registrations. */
  list(options?: RequestOptions): Promise<WebhookList>;
  /** POST /api/webhooks: a URL for one event (the same URL again updates its headers). Not retried: a repeat bumps the version. */
  create(body: WebhookRegistrationInput, options?: RequestOptions): Promise<AnswerOf<'registerWebhook'>>;
  /** DELETE /api/webhooks/{id}: removes one of the account's registrations (its pending deliveries are cancelled). Safe to repeat: a second one is a 404. */
  delete(id: number, options?: RequestOptions): Promise<void>;
  /** POST /api/resend-webhook/{transactionIdentifier}: sends a transaction's last event again (to `url` when given). Not retried. */
  resend(transactionIdentifier: string, body?: BodyOf<'resendWebhook'>, options?: RequestOptions): Promise<WebhookResend>;
}

function flatten(headers: Record<string, string | string[] | undefined> | Headers): Record<string, string> {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Webhook verification with the account's `whsec_` secret (Standard Webhooks). */
export function createWebhooks(secret: string | undefined): Webhooks {
  return {
    verify(payload, headers) {
      if (!secret) throw new TypeError('Pass webhookSecret (the account\'s whsec_ secret) to verify webhooks');
      const body = typeof payload === 'string' ? payload : payload.toString('utf8');
      return new Webhook(secret).verify(body, flatten(headers)) as WebhookEvent;
    },
  };
}

export function accountWebhooks(http: Client<paths>, secret: string | undefined): AccountWebhooks {
  const init = (options: RequestOptions) => (options.signal ? { signal: options.signal } : {});
  return {
    ...createWebhooks(secret),
    list: (options = {}) => unwrap(http.GET('/api/webhooks', init(options))),
    // The document describes the route as the service runs by default (disabled, no body).
    create: (body, options = {}) => unwrap(http.POST('/api/webhooks', { body: body as never, ...init(options) })),
    delete: async (id, options = {}) => {
      await unwrap(http.DELETE('/api/webhooks/{id}', { params: { path: { id: String(id) } }, ...init(options) }));
    },
    resend: (transactionIdentifier, body = {}, options = {}) =>
      unwrap(http.POST('/api/resend-webhook/{transactionIdentifier}', { params: { path: { transactionIdentifier } }, body, ...init(options) })),
  };
}
