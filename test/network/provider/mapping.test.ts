import { describe, expect, it } from 'vitest';
import { cents } from '../../../src/domain/money.ts';
import {
  ADAPTER_REJECTIONS,
  externalIdOf,
  paymentRequestOf,
  paymentStatusOf,
  providerKeyOf,
  referenceOfRefundExternalId,
  submitAnswerOf,
} from '../../../src/network/provider/mapping.ts';
import type { PaymentOrder } from '../../../src/network/pix-network.ts';

const NOW = new Date('2026-05-01T12:00:00Z');
const CHECK_AT = new Date('2026-05-01T12:01:00Z');
const REF = '3b241101-e2bb-4255-8caf-4136c566a962';

const order = (payee: PaymentOrder['payee'], extra: Partial<PaymentOrder> = {}): PaymentOrder => ({
  reference: REF,
  kind: 'payout',
  amount: cents(1234),
  description: 'Aluguel',
  payee,
  orderedAt: NOW,
  expiresAt: null,
  scenario: null,
  ...extra,
});

describe('provider mapping: our orders in the provider\'s words', () => {
  it('keys: CPF/CNPJ are DOCUMENT, EVP is RANDOM, a phone loses +55', () => {
    expect(providerKeyOf({ type: 'CPF', normalized: '52998224725' })).toEqual({ key: '52998224725', keyType: 'DOCUMENT' });
    expect(providerKeyOf({ type: 'CNPJ', normalized: '11222333000181' })).toEqual({ key: '11222333000181', keyType: 'DOCUMENT' });
    expect(providerKeyOf({ type: 'EMAIL', normalized: 'a@b.example' })).toEqual({ key: 'a@b.example', keyType: 'EMAIL' });
    expect(providerKeyOf({ type: 'PHONE', normalized: '+5511987654321' })).toEqual({ key: '11987654321', keyType: 'PHONE' });
    expect(providerKeyOf({ type: 'EVP', normalized: REF })).toEqual({ key: REF, keyType: 'RANDOM' });
  });

  it('a payout by key is a cash-out with our reference as externalId and BRL as a number', () => {
    const r = paymentRequestOf(order({ by: 'key', key: { type: 'EMAIL', normalized: 'loja@x.example' }, document: '52998224725', holderDocument: null, ispb: null, name: 'Loja' }), NOW);
    expect(r).toEqual({
      route: 'cash_out',
      path: '/api/pix/cash-out',
      body: { value: 12.34, externalId: REF, description: 'Aluguel', details: { key: 'loja@x.example', keyType: 'EMAIL', name: 'Loja', document: '52998224725' } },
    });
  });

  it('a key without any document is refused by the adapter (the provider requires one)', () => {
    expect(paymentRequestOf(order({ by: 'key', key: { type: 'EMAIL', normalized: 'x@y.example' }, document: null, holderDocument: null, ispb: null }), NOW)).toEqual({
      route: 'reject',
      rejection: ADAPTER_REJECTIONS.documentRequired,
    });
  });

  it('a QR code goes to cash-out-qrcode; an expired order is not sent', () => {
    const qr = paymentRequestOf(order({ by: 'qr_code', qrCode: '000201xyz', location: null, key: null, ispb: null, document: null, name: 'Padaria', holderDocument: null }), NOW);
    expect(qr).toEqual({ route: 'cash_out_qrcode', path: '/api/pix/cash-out-qrcode', body: { value: 12.34, qrCode: '000201xyz', externalId: REF, description: 'Aluguel', name: 'Padaria' } });
    const expired = paymentRequestOf(order({ by: 'qr_code', qrCode: '000201xyz', location: null, key: null, ispb: null, document: null, name: null, holderDocument: null }, { expiresAt: NOW }), NOW);
    expect(expired).toEqual({ route: 'reject', rejection: ADAPTER_REJECTIONS.expired });
  });

  it("a refund names the original by end-to-end id; its externalId is our UUID without hyphens, and maps back", () => {
    const r = paymentRequestOf(order({ by: 'refund', originalEndToEndId: 'E12345678202605011200abcdefghijk', reason: 'Devolução' }, { kind: 'refund' }), NOW);
    expect(r).toEqual({ route: 'refund_in', originalEndToEndId: 'E12345678202605011200abcdefghijk', body: { refundValue: 12.34, externalId: '3b241101e2bb42558caf4136c566a962', reason: 'Devolução' } });
    expect(externalIdOf({ reference: REF, kind: 'refund' })).toBe('3b241101e2bb42558caf4136c566a962');
    expect(externalIdOf({ reference: REF, kind: 'payout' })).toBe(REF);
    expect(referenceOfRefundExternalId('3B241101E2BB42558CAF4136C566A962')).toBe(REF);
    expect(referenceOfRefundExternalId('D123')).toBeUndefined();
    expect(referenceOfRefundExternalId(null)).toBeUndefined();
  });

  it('submission answers: 201 accepted; a duplicate externalId is accepted already (400 or 409); any other 4xx is refused with its code', () => {
    expect(submitAnswerOf({ status: 201, body: {} }, CHECK_AT)).toEqual({ status: 'accepted', checkAt: CHECK_AT });
    expect(submitAnswerOf({ status: 400, body: { code: 'PIX_DUPLICATE_EXTERNAL_ID', errorCode: 'PIX_DUPLICATE_EXTERNAL_ID' } }, CHECK_AT).status).toBe('accepted');
    expect(submitAnswerOf({ status: 400, body: { errorCode: 'PIX_REFUND_DUPLICATE_EXTERNAL_ID' } }, CHECK_AT).status).toBe('accepted');
    expect(submitAnswerOf({ status: 409, body: {} }, CHECK_AT).status).toBe('accepted');
    expect(submitAnswerOf({ status: 400, body: { code: 'PIX_INVALID_PIX_KEY', errorCode: 'PIX_INVALID_PIX_KEY', message: 'The key was not found' } }, CHECK_AT)).toEqual({
      status: 'rejected',
      errorCode: 'PIX_INVALID_PIX_KEY',
      errorMessage: 'The key was not found',
    });
    expect(submitAnswerOf({ status: 400, body: { code: 'HTTP_ERROR', message: ['value must be >= 0.01', 'details.name is required'] } }, CHECK_AT)).toEqual({
      status: 'rejected',
      errorCode: 'HTTP_ERROR',
      errorMessage: 'value must be >= 0.01; details.name is required',
    });
    expect(submitAnswerOf({ status: 422, body: undefined }, CHECK_AT)).toMatchObject({ status: 'rejected', errorCode: 'PROVIDER_HTTP_422' });
  });

  it('status answers: 404 never received; CONFIRMED with its end-to-end id settled; ERROR rejected; anything else pending, never success', () => {
    expect(paymentStatusOf({ status: 404, body: {} }, CHECK_AT)).toEqual({ status: 'not_found' });
    expect(paymentStatusOf({ status: 200, body: { status: 'CONFIRMED', e2eId: 'E1' } }, CHECK_AT)).toEqual({ status: 'settled', endToEndId: 'E1' });
    expect(paymentStatusOf({ status: 200, body: { status: 'ERROR', e2eId: null } }, CHECK_AT)).toEqual({ status: 'rejected', ...ADAPTER_REJECTIONS.failedWithoutReason });
    expect(paymentStatusOf({ status: 200, body: { status: 'PENDING' } }, CHECK_AT)).toEqual({ status: 'pending', checkAt: CHECK_AT });
    expect(paymentStatusOf({ status: 200, body: { status: 'CONFIRMED', e2eId: null } }, CHECK_AT)).toEqual({ status: 'pending', checkAt: CHECK_AT });
    expect(paymentStatusOf({ status: 200, body: { status: 'SETTLED?' } }, CHECK_AT)).toEqual({ status: 'pending', checkAt: CHECK_AT });
    expect(paymentStatusOf({ status: 400, body: {} }, CHECK_AT)).toMatchObject({ status: 'unknown' });
  });
});
