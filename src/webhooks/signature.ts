import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing: `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed by the account's `whsec_` secret. Receivers verify with any Standard Webhooks library. With
 * several secrets (a rotation's overlap) the header carries one `v1,` signature per secret,
 * space-separated, as the standard allows: a receiver holding either secret verifies the delivery.
 */
export function signatureHeaders(secrets: string | readonly string[], messageId: string, at: Date, body: string): Record<string, string> {
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  if (keys.length === 0) throw new Error('a webhook needs at least one signing secret');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': keys.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
