import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_EXPIRATION_S, MAX_EXPIRATION_S, MIN_EXPIRATION_S } from '../../../services/charges/charge-model.ts';
import { DecimalAmount } from '../../schemas/common.ts';
import { toDecimalString } from '../../../domain/money.ts';
import type { Devedor } from '../../../db/schema/charges.ts';
import type { CobReading } from '../../../services/charges/charge.service.ts';
import { Devolucao, devolucaoView } from './devolucao-view.ts';

const InfoAdicional = Type.Object({ nome: Type.String({ maxLength: 50 }), valor: Type.String({ maxLength: 200 }) });

/** The cob request body's pieces (central bank CobSolicitada). */
export const CobBody = Type.Object({
  calendario: Type.Object({
    expiracao: Type.Optional(Type.Integer({ minimum: MIN_EXPIRATION_S, maximum: MAX_EXPIRATION_S, description: `seconds, default ${DEFAULT_EXPIRATION_S}` })),
  }),
  devedor: Type.Optional(
    Type.Object({
      cpf: Type.Optional(Type.String({ format: 'cpf', maxLength: 11, description: 'exactly 11 digits' })),
      cnpj: Type.Optional(Type.String({ format: 'cnpj', maxLength: 14 })),
      nome: Type.String({ minLength: 1, maxLength: 200 }),
    }),
  ),
  valor: Type.Object({
    original: DecimalAmount(),
    modalidadeAlteracao: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  }),
  chave: Type.String({ format: 'dict-key', maxLength: 77 }),
  solicitacaoPagador: Type.Optional(Type.String({ maxLength: 140 })),
  infoAdicionais: Type.Optional(Type.Array(InfoAdicional, { maxItems: 50 })),
});

export const TxidParams = Type.Object({
  txid: Type.String({ pattern: '^[a-zA-Z0-9]{26,35}$', description: '26-35 letters and digits' }),
});

/** The charge as the compatible family answers it (central bank CobGerada plus the spec's fields). */
export const Cob = Type.Object({
  calendario: Type.Object({ criacao: Type.String({ format: 'date-time' }), expiracao: Type.Integer() }),
  txid: Type.String(),
  revisao: Type.Integer(),
  loc: Type.Object({ id: Type.Integer(), txid: Type.String(), location: Type.String(), tipoCob: Type.Literal('cob'), criacao: Type.String({ format: 'date-time' }) }),
  location: Type.String({ description: 'the same value as loc.location' }),
  status: Type.String(),
  devedor: Type.Optional(Type.Object({ cpf: Type.Optional(Type.String({ format: 'cpf' })), cnpj: Type.Optional(Type.String({ format: 'cnpj' })), nome: Type.String() })),
  valor: Type.Object({ original: Type.String({ format: 'decimal-amount' }), modalidadeAlteracao: Type.Integer() }),
  chave: Type.String({ format: 'dict-key' }),
  solicitacaoPagador: Type.Optional(Type.String()),
  infoAdicionais: Type.Optional(Type.Array(InfoAdicional)),
  pixCopiaECola: Type.String(),
  pix: Type.Optional(
    Type.Array(
      Type.Object({
        endToEndId: Type.String({ description: 'the id a devolução names (PUT /pix/{e2eid}/devolucao/{id})' }),
        txid: Type.String(),
        valor: Type.String({ format: 'decimal-amount' }),
        chave: Type.String({ format: 'dict-key' }),
        horario: Type.String({ format: 'date-time' }),
        devolucoes: Type.Array(Devolucao),
      }),
      { description: 'the PIX received for the charge, once paid (central bank CobCompleta)' },
    ),
  ),
});

/**
 * `loc.location` and `location` carry the copy-and-paste EMV string, as the interface spec says
 * (the central bank puts the URL there; its EMV field `pixCopiaECola` is answered too).
 */
export function cobView({ charge, payments }: CobReading): Static<typeof Cob> {
  const devedor = charge.devedor as Devedor | null;
  const infoAdicionais = charge.info_adicionais as Array<{ nome: string; valor: string }> | null;
  return {
    calendario: { criacao: charge.created_at.toISOString(), expiracao: charge.expiration_seconds },
    txid: charge.txid,
    revisao: charge.revisao,
    loc: { id: charge.id, txid: charge.txid, location: charge.br_code, tipoCob: 'cob', criacao: charge.created_at.toISOString() },
    location: charge.br_code,
    status: charge.status,
    ...(devedor ? { devedor } : {}),
    valor: { original: toDecimalString(charge.amount), modalidadeAlteracao: charge.modalidade_alteracao },
    chave: charge.receiver_key,
    ...(charge.solicitacao_pagador !== null ? { solicitacaoPagador: charge.solicitacao_pagador } : {}),
    ...(infoAdicionais ? { infoAdicionais } : {}),
    pixCopiaECola: charge.br_code,
    ...(payments.length > 0
      ? {
          pix: payments.map(({ tx, refunds }) => ({
            endToEndId: tx.end_to_end_id!,
            txid: charge.txid,
            valor: toDecimalString(tx.original_amount),
            chave: charge.receiver_key,
            horario: (tx.processed_at ?? tx.updated_at).toISOString(),
            devolucoes: refunds.map((r) => devolucaoView(r.tx, r.refund)),
          })),
        }
      : {}),
  };
}
