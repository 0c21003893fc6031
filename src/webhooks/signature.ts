import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing: `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed by the account's `whsec_` secret. Receivers verify with any Standard Webhooks library.
 */
export function signatureHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}
