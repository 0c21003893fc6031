import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { NoticeRefused, NoticeUnreadable } from '../provider-notices.ts';

export interface VerifiedNotice {
  webhookId: string;
  payload: Record<string, unknown>;
}

/**
 * Standard Webhooks, as this service itself signs (src/webhooks/signature.ts): `webhook-signature`
 * is `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the `whsec_` secret, and a timestamp
 * more than 5 minutes away from now is refused (the library's tolerance). The body must be the
 * exact bytes received.
 */
export function verifyNotice(secret: string, rawBody: string, headers: Record<string, string | string[] | undefined>): VerifiedNotice {
  const flat: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = headers[name];
    if (typeof value === 'string') flat[name] = value;
  }
  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(rawBody, flat);
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new NoticeRefused(error.message);
    // The signature held (the library checks it before parsing), but the body is not JSON.
    throw new NoticeUnreadable(`the notice body is not JSON: ${(error as Error).message}`);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw new NoticeUnreadable('the notice body is not a JSON object');
  return { webhookId: flat['webhook-id']!, payload: payload as Record<string, unknown> };
}
