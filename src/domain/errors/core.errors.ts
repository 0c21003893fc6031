import type { ErrorSpec } from './error-spec.ts';

export const coreErrors = {
  VALIDATION_FAILED: {
    status: 400,
    message: 'The request is invalid.',
    userMessage: 'Os dados enviados são inválidos. Verifique os campos e tente novamente.',
    generic: true,
  },
  UNAUTHORIZED: {
    status: 401,
    message: 'The access token is missing, invalid or expired.',
    userMessage: 'Token de acesso inválido ou expirado. Gere um novo token e tente novamente.',
    generic: true,
  },
  FORBIDDEN: {
    status: 403,
    message: 'The access token does not grant the scope this route needs.',
    userMessage: 'Você não tem permissão para realizar esta operação.',
    generic: true,
  },
  ACCOUNT_SUSPENDED: {
    status: 403,
    message: 'Account suspended (ACCOUNT_SUSPENDED): an operator suspended this account, so it cannot move money out. Reads and incoming PIX continue.',
    userMessage: 'Conta suspensa: envios, devoluções e transferências estão bloqueados. Consultas e recebimentos continuam. Fale com o suporte.',
  },
  NOT_FOUND: {
    status: 404,
    message: 'Not found.',
    userMessage: 'O recurso solicitado não foi encontrado.',
    generic: true,
  },
  CONFLICT: {
    status: 409,
    message: 'The request conflicts with the current state of the resource.',
    userMessage: 'A operação conflita com o estado atual do recurso.',
    generic: true,
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This idempotency key was already used with a different request body.',
    userMessage: 'A chave de idempotência já foi usada com outra requisição.',
  },
  IDEMPOTENCY_KEY_IN_FLIGHT: {
    status: 409,
    message: 'A request with this idempotency key is still being processed.',
    userMessage: 'Uma requisição com esta chave de idempotência ainda está em processamento.',
  },
  UNPROCESSABLE: {
    status: 422,
    message: 'The request cannot be processed.',
    userMessage: 'A requisição não pôde ser processada.',
    generic: true,
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    message: 'The request body is larger than 1 MiB.',
    userMessage: 'A requisição é grande demais.',
    generic: true,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'The request body must be JSON (Content-Type: application/json).',
    userMessage: 'Formato de conteúdo não suportado.',
    generic: true,
  },
  RATE_LIMITED: {
    status: 429,
    message: 'Too many requests. Retry after the time in the Retry-After header.',
    userMessage: 'Muitas requisições. Aguarde e tente novamente.',
    generic: true,
  },
  INTERNAL: {
    status: 500,
    message: 'An unexpected error occurred. Quote the errorId to support.',
    userMessage: 'Ocorreu um erro inesperado. Tente novamente mais tarde.',
    generic: true,
  },
  PROVIDER_UNAVAILABLE: {
    status: 500,
    message: 'The payment provider cannot be reached. Nothing was stored and no money was held; retry.',
    userMessage: 'O provedor de pagamentos está indisponível no momento. Tente novamente.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The service is temporarily unavailable. Retry with exponential backoff.',
    userMessage: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
    generic: true,
  },
} satisfies Record<string, ErrorSpec>;
