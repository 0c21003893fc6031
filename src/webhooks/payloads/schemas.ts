import { Type } from '@sinclair/typebox';
import { MED_EVENT_NAMES, TRANSACTION_EVENT_NAMES } from '../../domain/closed-lists.ts';
import { Med } from './med.ts';

/**
 * The bodies the service POSTs to registered webhook URLs, as the OpenAPI `webhooks` section
 * documents them. The builders (transaction-event.ts, charge-events.ts, refund-events.ts, the MED
 * service) produce them; test/openapi/webhook-payloads.test.ts checks real deliveries against these.
 */

const NullableString = Type.Union([Type.String(), Type.Null()]);

const Counterpart = Type.Object({
  name: NullableString,
  document: Type.Union([Type.String({ description: 'masked: ***.456.789-**' }), Type.Null()]),
  bank: Type.Object({
    bankISPB: NullableString,
    bankName: NullableString,
    bankCode: NullableString,
    accountBranch: NullableString,
    accountNumber: NullableString,
  }),
});

const ParentTransaction = Type.Object({
  transactionId: Type.String(),
  externalId: NullableString,
  endToEndId: NullableString,
  processingDate: Type.String({ format: 'date-time' }),
  wasTotalRefunded: Type.Boolean(),
  remainingAmountForRefund: Type.Number({ format: 'money' }),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  counterpart: Counterpart,
});

export const TransactionEventPayload = Type.Object(
  {
    event: Type.Union(TRANSACTION_EVENT_NAMES.map((v) => Type.Literal(v))),
    status: Type.String({ examples: ['CONFIRMED'], description: 'PENDING, CONFIRMED or ERROR' }),
    transactionType: Type.Literal('PIX'),
    movementType: Type.Union([Type.Literal('CREDIT'), Type.Literal('DEBIT')]),
    transactionId: Type.String(),
    externalId: NullableString,
    endToEndId: NullableString,
    pixKey: NullableString,
    feeAmount: Type.Number({ format: 'money' }),
    originalAmount: Type.Number({ format: 'money' }),
    finalAmount: Type.Number({ format: 'money' }),
    processingDate: Type.String({ format: 'date-time' }),
    errorCode: NullableString,
    errorMessage: NullableString,
    counterpart: Counterpart,
    metadata: Type.Record(Type.String(), Type.Unknown()),
    parentTransaction: Type.Optional(ParentTransaction),
  },
  {
    $id: 'TransactionEvent',
    description: 'cash_in, cash_out, refund_in and refund_out of the full family (reversals carry parentTransaction)',
    examples: [
      {
        event: 'CashIn',
        status: 'CONFIRMED',
        transactionType: 'PIX',
        movementType: 'CREDIT',
        transactionId: '7k2mH9qRt4Wx',
        externalId: 'order-1042',
        endToEndId: 'E9999999920261120150000000000001',
        pixKey: null,
        feeAmount: 0.5,
        originalAmount: 150.0,
        finalAmount: 149.5,
        processingDate: '2026-11-20T15:00:02.000Z',
        errorCode: null,
        errorMessage: null,
        counterpart: {
          name: 'Maria da Silva',
          document: '***.456.789-**',
          bank: { bankISPB: '00000000', bankName: 'Banco do Brasil S.A.', bankCode: '001', accountBranch: '0001', accountNumber: '123456' },
        },
        metadata: {},
      },
    ],
  },
);

const Payment = Type.Object({ amount: Type.String({ pattern: '^\\d{1,10}\\.\\d{2}$', examples: ['150.00'] }), currency: Type.Literal('BRL') });

export const ReceiveEventPayload = Type.Object(
  {
    type: Type.Literal('RECEIVE'),
    data: Type.Object({
      id: Type.Number(),
      txId: Type.String(),
      status: Type.Literal('LIQUIDATED'),
      payment: Payment,
      endToEndId: NullableString,
      debtorAccount: Type.Object({ name: NullableString, document: NullableString }),
    }),
  },
  { $id: 'ReceiveEvent', description: 'cash_in of a paid cob (compatible family, version-2 envelope)' },
);

export const RefundEventPayload = Type.Object(
  {
    type: Type.Literal('REFUND'),
    data: Type.Object({
      id: Type.Number(),
      txId: NullableString,
      status: Type.Union([Type.Literal('REFUNDED'), Type.Literal('ERROR')]),
      payment: Payment,
      refunds: Type.Array(
        Type.Object({
          id: Type.String(),
          status: Type.Union([Type.Literal('LIQUIDATED'), Type.Literal('ERROR')]),
          payment: Type.Object({ amount: Type.Number({ format: 'money' }), currency: Type.Literal('BRL') }),
          endToEndId: NullableString,
          eventDate: Type.String({ format: 'date-time' }),
          information: NullableString,
          errorCode: Type.Optional(NullableString),
          errorMessage: Type.Optional(NullableString),
        }),
      ),
      endToEndId: NullableString,
      creditDebitType: Type.Literal('DEBIT'),
    }),
  },
  { $id: 'RefundEvent', description: 'refund_in of a devolução (compatible family, version-2 envelope)' },
);

export const TransferEventPayload = Type.Object(
  {
    type: Type.Literal('TRANSFER'),
    data: Type.Object({
      id: Type.Number(),
      txId: Type.Null(),
      pixKey: NullableString,
      status: Type.Union([Type.Literal('LIQUIDATED'), Type.Literal('ERROR')]),
      payment: Payment,
      endToEndId: NullableString,
      creditDebitType: Type.Literal('DEBIT'),
      idempotencyKey: NullableString,
      creditorAccount: Type.Object({ name: NullableString, document: NullableString, ispb: NullableString }),
      remittanceInformation: NullableString,
      errorCode: Type.Optional(NullableString),
      errorMessage: Type.Optional(NullableString),
    }),
  },
  { $id: 'TransferEvent', description: 'cash_out of a POST /dict/pix transfer (compatible family, version-2 envelope)' },
);

export const MedEventPayload = Type.Object(
  {
    event: Type.Union(MED_EVENT_NAMES.map((name) => Type.Literal(name))),
    med: Med,
  },
  { $id: 'MedEvent', description: 'med_created, med_accepted and med_rejected' },
);
