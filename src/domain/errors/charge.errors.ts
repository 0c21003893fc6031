import type { ErrorSpec } from './error-spec.ts';

/** Business codes of charges: cash-in, cob, their payment (sandbox) and location. */
export const chargeErrors = {
  PIX_PROVIDER_EXPIRATION_BELOW_MINIMUM: {
    status: 400,
    message: "The expiration time is below the payment provider's minimum.",
    userMessage: 'O tempo de expiração informado é menor que o mínimo aceito pelo provedor.',
    errorCode: 'PROVIDER_EXPIRATION_BELOW_MINIMUM',
  },
  PIX_DUPLICATE_EXTERNAL_ID: {
    status: 400,
    message: 'The externalId was already used for this account.',
    userMessage: 'Já existe uma transação com este identificador externo.',
  },
  CHARGE_TXID_IN_USE: {
    status: 409,
    message: 'This txid was already used by a charge of the account.',
    userMessage: 'Já existe uma cobrança com este txid.',
  },
  CHARGE_NOT_PAYABLE: {
    status: 409,
    message: 'The charge can no longer be paid: it was paid, cancelled or has expired.',
    userMessage: 'Esta cobrança não pode mais ser paga.',
  },
  CHARGE_AMOUNT_MISMATCH: {
    status: 400,
    message: "The amount differs from the charge's, and the charge does not allow the payer to change it.",
    userMessage: 'O valor informado é diferente do valor da cobrança.',
  },
  CHARGE_CHANGE_NOT_ALLOWED: {
    status: 400,
    message: 'Only an ATIVA charge can be changed, and only its status to REMOVIDA_PELO_USUARIO_RECEBEDOR.',
    userMessage: 'Esta alteração da cobrança não é permitida.',
  },
} satisfies Record<string, ErrorSpec>;
