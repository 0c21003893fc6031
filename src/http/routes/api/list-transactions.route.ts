import { Type, type Static } from '@sinclair/typebox';
import { toBrlNumber } from '../../../domain/money.ts';
import type { TransactionRow } from '../../../db/repos/transactions.repo.ts';
import { movementOf, publicCounterpart } from '../../../webhooks/payloads/transaction-event.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Brl } from '../../schemas/common.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES, type TransactionKind, type TransactionStatus } from '../../../domain/closed-lists.ts';

const STATUS_LABEL = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' } as const satisfies Record<TransactionStatus, string>;
const OPERATION_LABEL = { PAYMENT: 'Pix in', WITHDRAW: 'Pix out', REFUND_IN: 'Refund in', REFUND_OUT: 'Refund out' } as const satisfies Record<TransactionKind, string>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const TransactionItem = Type.Object({
  transactionId: Type.String({ format: 'uuid-v4' }),
  externalId: Nullable(Type.String()),
  status: Type.String({ description: 'Pendente, Confirmado or Error' }),
  operationType: Type.String({ description: 'Pix in, Pix out, Refund in or Refund out' }),
  movementType: Type.String({ description: 'CREDIT or DEBIT' }),
  originalAmount: Brl(),
  feeAmount: Brl(),
  finalAmount: Brl(),
  endToEndId: Nullable(Type.String()),
  createdAt: Type.String(),
  processedAt: Nullable(Type.String()),
  counterpart: Type.Object({
    name: Nullable(Type.String()),
    document: Nullable(Type.String({ description: 'masked' })),
    bank: Type.Object({
      bankISPB: Nullable(Type.String()),
      bankName: Nullable(Type.String()),
      bankCode: Nullable(Type.String()),
      accountBranch: Nullable(Type.String()),
      accountNumber: Nullable(Type.String()),
    }),
  }),
});

const ListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  status: Type.Optional(OneOf(TRANSACTION_STATUSES)),
  type: Type.Optional(OneOf(TRANSACTION_KINDS)),
  startDate: Type.Optional(Type.String({ format: 'date-or-date-time', description: 'UTC date, inclusive; default 31 days before endDate' })),
  endDate: Type.Optional(Type.String({ format: 'date-or-date-time', description: 'UTC date, inclusive; default today' })),
  externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  endToEndId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

export function transactionItem(tx: TransactionRow): Static<typeof TransactionItem> {
  return {
    transactionId: tx.transaction_id,
    externalId: tx.external_id,
    status: STATUS_LABEL[tx.status],
    operationType: OPERATION_LABEL[tx.kind],
    movementType: movementOf(tx.kind),
    originalAmount: toBrlNumber(tx.original_amount),
    feeAmount: toBrlNumber(tx.fee_amount),
    finalAmount: toBrlNumber(tx.final_amount),
    endToEndId: tx.end_to_end_id,
    createdAt: tx.created_at.toISOString(),
    processedAt: tx.processed_at?.toISOString() ?? null,
    counterpart: publicCounterpart(tx.counterpart as never),
  };
}

export const listTransactionsRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/transactions',
    {
      onRequest: requireAccount(c, 'pix:read'),
      schema: {
        tags: ['transactions'],
        summary: "The account's transactions, newest first (UTC dates, both ends inclusive, at most 31 days)",
        security: [{ bearer: [] }],
        querystring: ListQuery,
        response: {
          200: Type.Object({
            data: Type.Array(TransactionItem),
            metadata: Type.Object({
              page: Type.Number(),
              size: Type.Number(),
              total: Type.Number(),
              totalPages: Type.Number(),
              hasNext: Type.Boolean(),
              hasPrevious: Type.Boolean(),
            }),
          }),
        },
      },
    },
    async (request) => {
      const { rows, metadata } = await c.transactions.list(accountIdOf(request), request.query);
      return { data: rows.map(transactionItem), metadata };
    },
  );
