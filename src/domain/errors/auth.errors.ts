import type { ErrorSpec } from './error-spec.ts';

/** The codes of POST /api/auth/token (interface spec, "Authentication"), also behind /oauth/token. */
export const authErrors = {
  PUB_CERT_HEADER_MISSING: {
    status: 400,
    message: 'The X-SSL-Client-Cert header is missing.',
    userMessage: 'Certificado do cliente não enviado. Envie o certificado no cabeçalho X-SSL-Client-Cert.',
  },
  PUB_CERT_MALFORMED_PEM: {
    status: 400,
    message: 'The client certificate cannot be parsed as a percent-encoded PEM X.509 certificate.',
    userMessage: 'O certificado do cliente é inválido ou está codificado incorretamente.',
  },
  PUB_REQUEST_BODY_INVALID: {
    status: 400,
    message: 'The request body is invalid.',
    userMessage: 'Os dados de autenticação enviados são inválidos. Verifique clientId e clientSecret.',
  },
  PUB_CERT_NOT_YET_VALID: {
    status: 401,
    message: 'The client certificate is not valid yet (notBefore is in the future).',
    userMessage: 'O certificado do cliente ainda não é válido.',
  },
  PUB_CERT_EXPIRED: {
    status: 401,
    message: 'The client certificate has expired (notAfter has passed).',
    userMessage: 'O certificado do cliente expirou. Solicite um novo certificado.',
  },
  PUB_CERT_NOT_REGISTERED: {
    status: 401,
    message: 'The client certificate is not registered (never registered, or revoked).',
    userMessage: 'O certificado do cliente não está cadastrado ou foi revogado.',
  },
  PUB_INVALID_CREDENTIALS: {
    status: 401,
    message: 'Invalid client credentials.',
    userMessage: 'Credenciais inválidas. Verifique clientId e clientSecret.',
  },
  PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT: {
    status: 403,
    message: 'The client certificate is not linked to the account that owns these credentials.',
    userMessage: 'O certificado do cliente não está vinculado à conta destas credenciais.',
  },
  /** /oauth/token only (RFC 6749 `invalid_scope`): a `scope` beyond what the credential carries. */
  AUTH_SCOPE_NOT_GRANTED: {
    status: 400,
    message: 'The requested scope is unknown or exceeds the scopes of these credentials.',
    userMessage: 'O escopo solicitado não é permitido para estas credenciais.',
  },
  PUB_AUTH_UPSTREAM_ERROR: {
    status: 502,
    message: 'The authentication service returned an unrecognized error.',
    userMessage: 'Falha no serviço de autenticação. Tente novamente mais tarde.',
  },
  PUB_AUTH_UPSTREAM_UNAVAILABLE: {
    status: 503,
    message: 'The authentication service is unreachable. Retry with exponential backoff.',
    userMessage: 'Serviço de autenticação indisponível no momento. Tente novamente em instantes.',
  },
} satisfies Record<string, ErrorSpec>;
