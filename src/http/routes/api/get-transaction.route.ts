import { Type, type Static } from '@sinclair/typebox';
import { maskDocument } from '../../../domain/documents.ts';
import { toBrlNumber } from '../../../domain/money.ts';
import type { TransactionRow } from '../../../db/repos/transactions.repo.ts';
import type { Counterpart } from '../../../db/schema.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Brl } from '../../schemas/common.ts';
import { TRANSACTION_STATUSES } from '../../../domain/closed-lists.ts';

const S = Type.String();
const N = Type.Union([Type.String(), Type.Null()]);

/** The provider's TransactionPollOutputDto (decisions 4.17). */
const TransactionPoll = Type.Object({
  id: S,
  externalId: N,
  type: Type.Union(['PAYMENT', 'REFUND_IN', 'REFUND_OUT', 'WITHDRAW', 'TRANSFER'].map((v) => Type.Literal(v))),
  status: Type.Union(TRANSACTION_STATUSES.map((v) => Type.Literal(v))),
  originalAmount: Brl(),
  feeAmount: Brl(),
  finalAmount: Brl(),
  e2eId: N,
  counterpartName: N,
  counterpartDocument: Type.Union([Type.String({ description: 'masked' }), Type.Null()]),
  counterpartAccountBankCode: N,
  counterpartAccountBranch: N,
  counterpartAccountNumber: N,
  counterpartAccountIspb: N,
  counterpartAccountBankName: N,
  createdAt: S,
  updatedAt: S,
  processedAt: N,
});

export function transactionPoll(tx: TransactionRow): Static<typeof TransactionPoll> {
  const cp = tx.counterpart as Counterpart | null;
  return {
    id: String(tx.id),
    externalId: tx.external_id,
    type: tx.kind,
    status: tx.status,
    originalAmount: toBrlNumber(tx.original_amount),
    feeAmount: toBrlNumber(tx.fee_amount),
    finalAmount: toBrlNumber(tx.final_amount),
    e2eId: tx.end_to_end_id,
    counterpartName: cp?.name ?? null,
    counterpartDocument: cp?.document ? maskDocument(cp.document) : null,
    counterpartAccountBankCode: cp?.bank?.bankCode ?? null,
    counterpartAccountBranch: cp?.bank?.accountBranch ?? null,
    counterpartAccountNumber: cp?.bank?.accountNumber ?? null,
    counterpartAccountIspb: cp?.bank?.bankISPB ?? null,
    counterpartAccountBankName: cp?.bank?.bankName ?? null,
    createdAt: tx.created_at.toISOString(),
    updatedAt: tx.updated_at.toISOString(),
    processedAt: tx.processed_at?.toISOString() ?? null,
  };
}

export const getTransactionRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/pix/transaction/:id',
    {
      onRequest: requireAccount(c, 'pix:read'),
      schema: {
        tags: ['transactions'],
        summary: 'Poll one transaction by numeric id, transactionId or externalId',
        security: [{ bearer: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) }),
        response: { 200: TransactionPoll },
      },
    },
    async (request) => transactionPoll(await c.transactions.get(accountIdOf(request), request.params.id)),
  );
