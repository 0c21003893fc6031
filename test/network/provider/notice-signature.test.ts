import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyNotice } from '../../../src/network/provider/notice-signature.ts';
import { NoticeRefused, NoticeUnreadable } from '../../../src/network/provider-notices.ts';
import { signatureHeaders } from '../../../src/webhooks/signature.ts';
import { TEST_PROVIDER_WEBHOOK_SECRET } from '../../provider-env.ts';

const BODY = JSON.stringify({ event: 'CashOut', status: 'CONFIRMED', externalId: 'x' });

describe("the provider's notice signature (Standard Webhooks, as this service signs its own)", () => {
  it('accepts what our own signer (src/webhooks/signature.ts) produces, and answers the id and the payload', () => {
    const headers = signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_1', new Date(), BODY);
    expect(verifyNotice(TEST_PROVIDER_WEBHOOK_SECRET, BODY, headers)).toEqual({ webhookId: 'msg_1', payload: JSON.parse(BODY) });
  });

  it.each([
    ['another secret', () => signatureHeaders('whsec_b3RoZXItc2VjcmV0LW9mLTI0LWJ5dGVzISE=', 'msg_2', new Date(), BODY), BODY],
    ['a body changed after signing', () => signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_3', new Date(), BODY), BODY.replace('CONFIRMED', 'ERROR')],
    ['another id than the signed one', () => ({ ...signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_4', new Date(), BODY), 'webhook-id': 'msg_5' }), BODY],
    ['a timestamp 6 minutes old', () => signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_6', new Date(Date.now() - 6 * 60_000), BODY), BODY],
    ['a timestamp 6 minutes ahead', () => signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_7', new Date(Date.now() + 6 * 60_000), BODY), BODY],
    ['no signature headers', () => ({}), BODY],
    ['a signature of another version', () => ({ ...signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_8', new Date(), BODY), 'webhook-signature': 'v2,abc' }), BODY],
  ])('refuses %s', (_name, headers, body) => {
    expect(() => verifyNotice(TEST_PROVIDER_WEBHOOK_SECRET, body, headers())).toThrow(NoticeRefused);
  });

  it('a timestamp 4 minutes old is still inside the tolerance', () => {
    const headers = signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_9', new Date(Date.now() - 4 * 60_000), BODY);
    expect(verifyNotice(TEST_PROVIDER_WEBHOOK_SECRET, BODY, headers).webhookId).toBe('msg_9');
  });

  it('a correctly signed body that is not a JSON object is unreadable, not forged', () => {
    const at = new Date();
    const sign = (body: string) => ({ 'webhook-id': 'm', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(TEST_PROVIDER_WEBHOOK_SECRET).sign('m', at, body) });
    expect(() => verifyNotice(TEST_PROVIDER_WEBHOOK_SECRET, 'not json', sign('not json'))).toThrow(NoticeUnreadable);
    expect(() => verifyNotice(TEST_PROVIDER_WEBHOOK_SECRET, '[1]', sign('[1]'))).toThrow(NoticeUnreadable);
  });
});
