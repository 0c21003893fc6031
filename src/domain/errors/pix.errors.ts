import { MAX_AMOUNT_GROUPED } from '../money.ts';
import type { ErrorSpec } from './error-spec.ts';

/** Business codes of the payment routes (cash-out, cash-in, refunds). */
export const pixErrors = {
  PIX_INSUFFICIENT_BALANCE: {
    status: 400,
    message: 'The available balance does not cover the amount plus fees.',
    userMessage: 'Saldo insuficiente para realizar a operação.',
  },
  PIX_INVALID_AMOUNT: {
    status: 400,
    message: `The amount is invalid: above ${MAX_AMOUNT_GROUPED}, or the fee leaves nothing to pay.`,
    userMessage: 'Valor inválido para a operação.',
  },
  PIX_TRANSACTION_LIMIT_EXCEEDED: {
    status: 400,
    message: "The amount is above the account's per-transaction limit.",
    userMessage: 'O valor excede o limite por transação da conta.',
  },
  PIX_DAILY_LIMIT_EXCEEDED: {
    status: 400,
    message: "The amount would take today's payouts (America/Sao_Paulo) above the account's daily limit.",
    userMessage: 'O valor excede o limite diário da conta.',
  },
  PIX_NIGHT_LIMIT_EXCEEDED: {
    status: 400,
    message: "The amount would take tonight's payouts (20:00-06:00, America/Sao_Paulo) above the account's night limit.",
    userMessage: 'O valor excede o limite noturno da conta (20h às 6h).',
  },
  PIX_INVALID_PIX_KEY: {
    status: 400,
    message: 'The PIX key cannot receive this payment: it is not in the key directory, or it is the account\'s own key.',
    userMessage: 'Chave PIX inválida ou inexistente.',
  },
  PIX_INVALID_QR_CODE: {
    status: 400,
    message: 'The QR code is invalid or cannot be paid.',
    userMessage: 'QR Code inválido.',
  },
  PIX_QR_CODE_AMOUNT_MISMATCH: {
    status: 400,
    message: 'The value differs from the amount embedded in the QR code.',
    userMessage: 'O valor informado é diferente do valor do QR Code.',
  },
  PIX_QR_CODE_EXTERNAL_ID_IN_USE: {
    status: 409,
    message: 'The externalId was already used for this account.',
    userMessage: 'Já existe uma transação com este identificador externo.',
    errorCode: 'PIX_DUPLICATE_EXTERNAL_ID',
  },
  DICT_KEY_NOT_FOUND: {
    status: 422,
    message: 'The PIX key was not found in the key directory.',
    userMessage: 'Chave PIX não encontrada.',
  },
  DICT_INSUFFICIENT_BALANCE: {
    status: 422,
    message: 'The available balance does not cover the amount plus fees.',
    userMessage: 'Saldo insuficiente para realizar a operação.',
  },
  DICT_ISPB_DENIED: {
    status: 422,
    message: "The key's institution is in ispbDeny.",
    userMessage: 'A instituição de destino não é permitida para esta transferência.',
  },
  PAYOUT_REFUND_EXCEEDS_PAYOUT: {
    status: 400,
    message: 'The refunds of a payout cannot add up to more than it paid.',
    userMessage: 'O valor devolvido excede o valor do pagamento.',
  },
  PAYOUT_NOT_REFUNDABLE: {
    status: 409,
    message: 'Only a CONFIRMED payout can be refunded by the receiving bank.',
    userMessage: 'Este pagamento não pode ser devolvido.',
  },
} satisfies Record<string, ErrorSpec>;
