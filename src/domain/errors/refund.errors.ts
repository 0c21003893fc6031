import type { ErrorSpec } from './error-spec.ts';

/** Business codes of refunds (refund-in, devolucao) and MED. */
export const refundErrors = {
  PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE: {
    status: 400,
    message: 'The refund amount is above what is still refundable of the original PIX.',
    userMessage: 'O valor da devolução excede o valor ainda disponível para devolução.',
  },
  PIX_REFUND_DEADLINE_EXCEEDED: {
    status: 400,
    message: 'The refund deadline (89 days after the PIX was received) has passed.',
    userMessage: 'O prazo de 89 dias para devolução deste PIX expirou.',
  },
  PIX_REFUND_DUPLICATE_EXTERNAL_ID: {
    status: 400,
    message: 'The externalId was already used by this account.',
    userMessage: 'Já existe uma transação com este identificador externo.',
  },
  /** The compatible family answers a passed deadline with 422 (the spec's status list). */
  DEVOLUCAO_DEADLINE_EXCEEDED: {
    status: 422,
    message: 'The refund deadline (89 days after the PIX was received) has passed.',
    userMessage: 'O prazo de 89 dias para devolução deste PIX expirou.',
  },
  DEVOLUCAO_ID_IN_USE: {
    status: 409,
    message: 'This devolucao id was already used for this PIX.',
    userMessage: 'Este identificador de devolução já foi utilizado para este PIX.',
  },
  MED_INVALID_TRANSITION: {
    status: 409,
    message: 'The MED cannot move to that status from its current status.',
    userMessage: 'A transição de status solicitada não é permitida para este MED.',
  },
} satisfies Record<string, ErrorSpec>;
