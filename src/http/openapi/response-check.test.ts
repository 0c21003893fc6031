import { Type, type TSchema } from '@sinclair/typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponsesAgainstDocument, checkWebhookDelivery, takeResponseViolations } from './response-check.ts';

// The suite's response check judges formats with the service's own table: a malformed amount, id,
// document, key or date in an answer is a violation of the test that provoked it.
describe('the response contract check', () => {
  const app = Fastify();
  /** A route that answers `{ value }` whatever its schema says. */
  const route = (name: string, schema: TSchema) => app.get(`/${name}`, { schema: { response: { 200: Type.Object({ value: schema }) } } }, async (request) => ({ value: JSON.parse((request.query as { v: string }).v) }));
  beforeAll(async () => {
    checkResponsesAgainstDocument(app);
    route('money', Type.Number({ format: 'money' }));
    route('uuid-v4', Type.String({ format: 'uuid-v4' }));
    route('document', Type.String({ format: 'document' }));
    route('dict-key', Type.String({ format: 'dict-key' }));
    route('date-time', Type.String({ format: 'date-time' }));
    route('decimal-amount', Type.String({ format: 'decimal-amount' }));
    route('unknown', Type.String({ format: 'no-such-format' }));
    await app.ready();
  });
  afterAll(() => app.close());

  const answer = async (name: string, value: unknown) => {
    takeResponseViolations();
    const res = await app.inject({ method: 'GET', url: `/${name}`, query: { v: JSON.stringify(value) } });
    expect(res.statusCode).toBe(200);
    return takeResponseViolations();
  };

  it.each([
    ['money', 150.5, 1.005],
    ['money', 0, 10.123],
    ['uuid-v4', '0b9b3a4c-6b1e-4d2a-9c3f-1a2b3c4d5e6f', '0b9b3a4c-6b1e-1d2a-9c3f-1a2b3c4d5e6f'],
    ['uuid-v4', '0b9b3a4c-6b1e-4d2a-9c3f-1a2b3c4d5e6f', 'not-a-uuid'],
    ['document', '11144477735', '11144477736'],
    ['dict-key', 'maria@example.com', 'not a key'],
    ['date-time', '2026-11-20T15:00:00.000Z', '2026-02-30T15:00:00.000Z'],
    ['decimal-amount', '150.00', '150.5'],
  ])('%s: accepts %j, refuses %j', async (name, good, bad) => {
    expect(await answer(name, good)).toEqual([]);
    const violations = await answer(name, bad);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain(`GET /${name} answered 200 with a body its schema refuses`);
    expect(violations[0]).toContain(`must match format "${name}"`);
  });

  it('a format no table checks is a violation, not a pass', async () => {
    const violations = await answer('unknown', 'anything');
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('unknown format "no-such-format"');
  });

  it('checks webhook payloads with the same table', () => {
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1795186800', 'webhook-signature': 'v1,x' };
    const event = {
      event: 'CashIn', status: 'CONFIRMED', transactionType: 'PIX', movementType: 'CREDIT', transactionId: '7k2mH9qRt4Wx', externalId: 'order-1042',
      endToEndId: 'E9999999920261120150000000000001', pixKey: null, feeAmount: 0.5, originalAmount: 150, finalAmount: 149.5,
      processingDate: '2026-11-20T15:00:02.000Z', errorCode: null, errorMessage: null,
      counterpart: { name: 'Maria da Silva', document: '***.456.789-**', bank: { bankISPB: '00000000', bankName: 'Banco do Brasil S.A.', bankCode: '001', accountBranch: '0001', accountNumber: '123456' } },
      metadata: {},
    };
    takeResponseViolations();
    checkWebhookDelivery(headers, JSON.stringify(event));
    expect(takeResponseViolations()).toEqual([]);
    checkWebhookDelivery(headers, JSON.stringify({ ...event, feeAmount: 0.505 }));
    const violations = takeResponseViolations();
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('must match format "money"');
  });
});
