/**
 * Realistic examples for the main operations (valid CPFs and CNPJs, real key shapes, BR Codes whose
 * CRC checks), added to the document by operationId so the route files stay about behaviour. The
 * lint (`no-invalid-media-type-examples`: error) and test/openapi/document.test.ts check each example
 * against its schema.
 */

import { ADMIN_EXAMPLES } from './admin-examples.ts';
import type { Examples } from './example-types.ts';
import { errorExample, type OperationFacts } from './error-examples.ts';
import { RECORDED_EXAMPLES } from './recorded-examples.ts';

const CPF = '11144477735'; // valid check digits
const CNPJ = '11222333000181'; // valid check digits
const EVP = '123e4567-e12b-42d1-a456-426655440000';
// A static BR Code (email key, R$ 10.00) from the central bank's samples; its CRC checks.
const STATIC_BR_CODE = '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6';
// A dynamic BR Code (location URL, single use); its CRC checks.
const DYNAMIC_BR_CODE = '00020101021226740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63042895';
const AT = '2026-11-20T15:00:00.000Z';
const TX = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

export type { Examples } from './example-types.ts';

/** Hand-written examples of the main operations (they take precedence over the recorded ones). */
const EVENT_EXAMPLE = {
  id: 'msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60',
  type: 'cash_in',
  createdAt: AT,
  payload: { event: 'CashIn', status: 'CONFIRMED', transactionId: TX, originalAmount: 150.0, feeAmount: 0.5, finalAmount: 149.5 },
};
const EVENT_LIST_EXAMPLE = { data: [EVENT_EXAMPLE], metadata: { size: 100, hasMore: false, next: EVENT_EXAMPLE.id } };
const REPLAY_EXAMPLE = { request: { since: '2026-11-20T00:00:00Z', status: 'failed' }, responses: { 202: { queued: 3 } } };

// Issue 29 item 3: per-account test clocks.
const TEST_CLOCK_EXAMPLE = { id: '5d2f8a1c-7e3b-4c9d-8a6f-1b2c3d4e5f60', name: 'refund window trial', frozenTime: '2027-01-04T15:00:00.000Z', status: 'ready', accountIds: [42] };

const WRITTEN_EXAMPLES: Record<string, Examples> = {
  createTestClock: { request: { frozenTime: '2027-01-04T15:00:00.000Z', accountIds: [42], name: 'refund window trial' }, responses: { 201: TEST_CLOCK_EXAMPLE } },
  listTestClocks: { responses: { 200: { data: [TEST_CLOCK_EXAMPLE], metadata: { total: 1, page: 1, pageSize: 20, totalPages: 1 } } } },
  getTestClock: { responses: { 200: TEST_CLOCK_EXAMPLE } },
  advanceTestClock: { request: { to: '2027-04-04T15:00:00.000Z' }, responses: { 202: { ...TEST_CLOCK_EXAMPLE, status: 'advancing' } } },
  // Issue 29: the events API and replay (the admin routes answer the same).
  listEvents: { responses: { 200: EVENT_LIST_EXAMPLE } },
  getEvent: { responses: { 200: EVENT_EXAMPLE } },
  replayWebhookDeliveries: REPLAY_EXAMPLE,
  listAccountEvents: { responses: { 200: EVENT_LIST_EXAMPLE } },
  getAccountEvent: { responses: { 200: EVENT_EXAMPLE } },
  replayAccountDeliveries: REPLAY_EXAMPLE,
  createToken: {
    request: { clientId: '3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24', clientSecret: 'cs_5Jk9Qw2Zr7Tx' },
    responses: { 201: { access_token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiYXQrand0In0.eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xOjMwMDAifQ.c2ln', token_type: 'Bearer', expires_in: 1800 } },
  },
  createCashIn: {
    request: {
      transaction: { value: 150.0, description: 'Pedido 1042', externalId: 'order-1042', expirationTime: 3600 },
      payer: { fullName: 'Maria da Silva', document: CPF },
    },
    responses: {
      201: { transactionId: TX, correlationId: '0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f', externalId: 'order-1042', status: 'PENDING', pixCode: DYNAMIC_BR_CODE, generateTime: AT, expirationDate: '2026-11-20T16:00:00.000Z' },
    },
  },
  createCashOut: {
    request: { value: 89.9, externalId: 'payout-2201', description: 'Reembolso pedido 1042', details: { key: 'maria.silva@example.com', keyType: 'EMAIL', name: 'Maria da Silva', document: CPF } },
    responses: { 201: { transactionId: TX, externalId: 'payout-2201', status: 'PENDING', generateTime: AT } },
  },
  createCashOutQrCode: {
    request: { value: 10.0, qrCode: STATIC_BR_CODE, externalId: 'qr-3301', description: 'Pedido 123' },
    responses: { 201: { transactionId: TX, externalId: 'qr-3301', status: 'PENDING', generateTime: AT } },
  },
  createRefundIn: {
    request: { refundValue: 50.0, reason: 'Produto devolvido', externalId: 'dev10421' },
  },
  putCob: {
    request: {
      calendario: { expiracao: 3600 },
      devedor: { cnpj: CNPJ, nome: 'Empresa Exemplo Ltda' },
      valor: { original: '123.45', modalidadeAlteracao: 0 },
      chave: EVP,
      solicitacaoPagador: 'Fatura 2026-11',
    },
  },
  createDictTransfer: {
    request: { pixKey: 'maria.silva@example.com', creditorDocument: CPF, priority: 'NORM', description: 'Pagamento fornecedor', payment: { currency: 'BRL', amount: 250.0 } },
  },
  createAccount: {
    request: { name: 'Maria da Silva', document: CPF, type: 'INDIVIDUAL' },
    responses: { 201: { id: 2, name: 'Maria da Silva', document: CPF, type: 'INDIVIDUAL', pixKey: EVP, status: 'ACTIVE', createdAt: AT } },
  },
  createDeposit: {
    request: { accountId: 2, value: 1000.0, payer: { name: 'João Souza', document: '52998224725', ispb: '00000000' } },
  },
  registerAccountWebhook: {
    request: { eventType: 'cash_in', url: 'https://example.com/pix/webhooks', headers: [{ key: 'x-api-key', value: 'my-receiver-key' }] },
  },
  payCharge: {
    request: { payer: { name: 'João Souza', document: '52998224725', ispb: '00000000' } },
  },
  // The operator's view of the provider adapter (PIX_NETWORK=provider).
  networkStatus: {
    responses: {
      200: {
        adapter: 'provider',
        ledgerAccount: 'network:provider',
        payoutsAwaitingOutcome: { count: 2, oldestCreatedAt: '2026-11-20T14:58:12.000Z' },
        suspense: { count: 1, total: 35.0 },
        provider: {
          url: 'https://api.provider.example',
          circuit: { state: 'closed', consecutiveFailures: 0, openedAt: null, retryAt: null, lastFailure: null },
          token: { expiresAt: '2026-11-20T15:25:00.000Z', lastRenewedAt: '2026-11-20T14:55:00.000Z', lastError: null },
          lastNotice: { webhookId: 'msg_2p4Xk7Qw9Zr1', event: 'cash_in', receivedAt: '2026-11-20T14:59:40.000Z', outcome: 'applied' },
          webhooks: { state: 'registered', url: 'https://pix.example.com/network/provider/webhooks', events: ['cash_in', 'cash_out', 'refund_in', 'refund_out'], at: '2026-11-20T08:00:01.000Z' },
          lastReconciliation: { at: AT, kind: 'payments', asked: 3, finished: 1, finishedTotal: 42 },
          chargesAwaitingOutcome: 0,
          lastStatementCheck: { checkedAt: '2026-11-20T06:00:00.000Z', providerBalance: 15230.4, ourBalance: 15230.4, difference: 0, payoutsAwaiting: 0, error: null },
        },
      },
    },
  },
  listSuspense: {
    responses: {
      200: {
        data: [
          {
            id: 7,
            status: 'OPEN',
            amount: 35.0,
            endToEndId: 'E18236120202611201459s0a1b2c3d4e',
            payer: { name: 'João Souza', document: '***.982.247-**', ispb: '18236120' },
            reason: 'no_charge',
            chargeReference: null,
            providerTransactionId: '8a3f2c1e-5b7d-4e9a-b6c4-1d2e3f4a5b6c',
            receivedAt: '2026-11-20T14:59:40.000Z',
            assignedAccountId: null,
            assignedTransactionId: null,
            assignedAt: null,
          },
        ],
        metadata: { total: 1, page: 1, pageSize: 20, totalPages: 1 },
        total: 1,
        page: 1,
        size: 20,
      },
    },
  },
  assignSuspense: {
    request: { accountId: 2 },
    responses: {
      200: {
        id: 7,
        status: 'ASSIGNED',
        amount: 35.0,
        endToEndId: 'E18236120202611201459s0a1b2c3d4e',
        payer: { name: 'João Souza', document: '***.982.247-**', ispb: '18236120' },
        reason: 'no_charge',
        chargeReference: null,
        providerTransactionId: '8a3f2c1e-5b7d-4e9a-b6c4-1d2e3f4a5b6c',
        receivedAt: '2026-11-20T14:59:40.000Z',
        assignedAccountId: 2,
        assignedTransactionId: TX,
        assignedAt: AT,
      },
    },
  },
  runStatementCheck: {
    responses: { 200: { id: 12, checkedAt: AT, providerBalance: 15230.4, ourBalance: 15195.4, difference: 35.0, payoutsAwaiting: 1, error: null } },
  },
  ...ADMIN_EXAMPLES,
};

/** Every operation's examples: the recorded ones, with the hand-written ones laid over them. */
export const OPERATION_EXAMPLES: Record<string, Examples> = Object.fromEntries(
  [...new Set([...Object.keys(RECORDED_EXAMPLES), ...Object.keys(WRITTEN_EXAMPLES)])].map((operationId) => {
    const recorded = RECORDED_EXAMPLES[operationId] ?? {};
    const written = WRITTEN_EXAMPLES[operationId] ?? {};
    const request = written.request ?? recorded.request;
    return [operationId, { ...(request !== undefined ? { request } : {}), responses: { ...recorded.responses, ...written.responses } }];
  }),
);

type Media = { schema?: { $ref?: string }; example?: unknown };
type Operation = {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: OperationFacts['parameters'];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};

const ENVELOPES = ['ApiError', 'ShortError', 'OAuthError'] as const;

/** Puts the examples on the operations of a generated document: the main ones above, and one per error status. */
export function addExamples(document: { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> }): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const examples = operation.operationId ? OPERATION_EXAMPLES[operation.operationId] : undefined;
      const body = operation.requestBody?.content?.['application/json'];
      if (examples) {
        if (body && examples.request !== undefined) body.example = examples.request;
        for (const [status, example] of Object.entries(examples.responses ?? {})) {
          const media = operation.responses?.[status]?.content?.['application/json'];
          if (media) media.example = example;
        }
      }
      if (!operation.operationId) continue;
      const facts: OperationFacts = {
        operationId: operation.operationId,
        method,
        path,
        security: operation.security ?? [],
        parameters: operation.parameters ?? [],
        body: body?.schema as OperationFacts['body'],
        components: document.components ?? {},
      };
      // Every error status its own example (the envelope's schema has one example only: a 400).
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const media = response.content?.['application/json'];
        const envelope = ENVELOPES.find((name) => media?.schema?.$ref === `#/components/schemas/${name}`);
        if (!media || !envelope || Number(status) < 400 || media.example !== undefined) continue;
        media.example = errorExample(facts, Number(status), envelope);
      }
    }
  }
}
