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
    message: 'The amount is invalid: above 999,999,999.99, or the fee leaves nothing to pay.',
    userMessage: 'Valor inválido para a operação.',
  },
} satisfies Record<string, ErrorSpec>;
