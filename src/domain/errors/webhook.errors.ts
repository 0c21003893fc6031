import type { ErrorSpec } from './error-spec.ts';

/** Webhook registration and resend (interface spec, `POST /api/webhooks`, resend route). */
export const webhookErrors = {
  WEBHOOK_URL_LIMIT_REACHED: {
    status: 400,
    message: 'This event already has 3 active webhook URLs; delete one before adding another.',
    userMessage: 'Este evento já possui 3 URLs de webhook ativas. Remova uma antes de cadastrar outra.',
  },
  WEBHOOK_NO_URL: {
    status: 400,
    message: "No webhook URL is registered for this transaction's event and none was given in the body.",
    userMessage: 'Nenhuma URL de webhook está configurada para este tipo de operação e nenhuma foi informada.',
  },
  WEBHOOK_NO_EVENT: {
    status: 400,
    message: 'This transaction has no webhook event yet (it is still being processed); nothing to resend.',
    userMessage: 'Esta transação ainda não gerou notificação de webhook. Aguarde o processamento e tente novamente.',
  },
  WEBHOOK_TRANSACTION_NOT_FOUND: {
    status: 404,
    message: 'Transaction not found.',
    userMessage: 'Transação não encontrada.',
  },
  WEBHOOK_NOT_FOUND: {
    status: 404,
    message: 'Webhook registration not found.',
    userMessage: 'Cadastro de webhook não encontrado.',
  },
} satisfies Record<string, ErrorSpec>;
