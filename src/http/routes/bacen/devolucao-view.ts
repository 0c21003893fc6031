import { Type, type Static } from '@sinclair/typebox';
import { toDecimalString } from '../../../domain/money.ts';
import type { TransactionRow } from '../../../db/repos/transactions.repo.ts';
import { DEVOLUCAO_ID_PATTERN } from '../../../services/refunds/refund-rules.ts';
import type { RefundRow } from '../../../services/refunds/refunds.repo.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { REFUND_NATURES, type TransactionStatus } from '../../../domain/closed-lists.ts';

export const DevolucaoParams = Type.Object({
  e2eid: Type.String({ pattern: '^[a-zA-Z0-9]{32}$', description: 'end-to-end id of the received PIX' }),
  id: Type.String({
    pattern: DEVOLUCAO_ID_PATTERN,
    description: "client-generated refund id; a refund-in made with another externalId is here under the service's own id, its transactionId without hyphens",
  }),
});

/** The central bank's `Devolucao` (bacen-pix-api openapi). */
export const Devolucao = Type.Object(
  {
    id: Type.String(),
    rtrId: Type.String(),
    valor: Type.String({ format: 'decimal-amount' }),
    natureza: OneOf(REFUND_NATURES),
    descricao: Type.Optional(Type.String()),
    horario: Type.Object({ solicitacao: Type.String(), liquidacao: Type.Optional(Type.String()) }),
    status: Type.Union([Type.Literal('EM_PROCESSAMENTO'), Type.Literal('DEVOLVIDO'), Type.Literal('NAO_REALIZADO')]),
    motivo: Type.Optional(Type.String()),
  },
  { $id: 'Devolucao' },
);

const STATUS = { PENDING: 'EM_PROCESSAMENTO', CONFIRMED: 'DEVOLVIDO', ERROR: 'NAO_REALIZADO' } as const satisfies Record<TransactionStatus, string>;

export function devolucaoView(tx: TransactionRow, refund: RefundRow): Static<typeof Devolucao> {
  return {
    id: refund.refund_id,
    rtrId: refund.rtr_id,
    valor: toDecimalString(tx.original_amount),
    natureza: refund.natureza,
    ...(refund.description !== null ? { descricao: refund.description } : {}),
    horario: {
      solicitacao: tx.created_at.toISOString(),
      ...(tx.status === 'CONFIRMED' && tx.processed_at ? { liquidacao: tx.processed_at.toISOString() } : {}),
    },
    status: STATUS[tx.status],
    ...(tx.status === 'ERROR' && tx.error_message ? { motivo: tx.error_message.slice(0, 140) } : {}),
  };
}
