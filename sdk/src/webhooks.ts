import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './openapi.ts';

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

/** Webhook verification with the account's `whsec_` secret (Standard Webhooks). */
export function createWebhooks(secret: string | undefined): Webhooks {
  return {
    verify(payload, headers) {
      if (!secret) throw new TypeError('Pass webhookSecret (the account\'s whsec_ secret) to verify webhooks');
      const flat: Record<string, string> = {};
      const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
      for (const [name, value] of entries) {
        if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const body = typeof payload === 'string' ? payload : payload.toString('utf8');
      return new Webhook(secret).verify(body, flat) as WebhookEvent;
    },
  };
}
