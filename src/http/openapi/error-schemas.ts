import { Type } from '@sinclair/typebox';
import { ShortError } from '../schemas/common.ts';

/**
 * One error schema per route family, registered once (`app.addSchema`) and referenced by every
 * operation, so the document, a generated client's `error` type and the serializer agree.
 */

export const ApiError = Type.Object(
  {
    statusCode: Type.Integer({ examples: [400] }),
    timestamp: Type.String({ format: 'date-time' }),
    path: Type.String({ examples: ['/api/pix/cash-out'] }),
    method: Type.String({ examples: ['POST'] }),
    code: Type.String({ description: 'the business code of the error catalogue, or HTTP_ERROR', examples: ['PIX_INSUFFICIENT_BALANCE'] }),
    message: Type.Union([Type.String(), Type.Array(Type.String())], { description: 'for developers; a list names each invalid field' }),
    userMessage: Type.String({ description: 'safe to show to the end user' }),
    errorId: Type.String({ description: 'the request id (also the X-Request-Id header); quote it to support' }),
    error: Type.String({ description: 'the HTTP reason phrase', examples: ['Bad Request'] }),
    errorCode: Type.Optional(Type.String()),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    $id: 'ApiError',
    description: 'The error envelope of the /api family',
    examples: [
      {
        statusCode: 400,
        timestamp: '2026-11-20T15:00:00.000Z',
        path: '/api/pix/cash-out',
        method: 'POST',
        code: 'PIX_INSUFFICIENT_BALANCE',
        message: 'The available balance does not cover the amount plus fees.',
        userMessage: 'Saldo insuficiente para realizar a operação.',
        errorId: '0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f',
        error: 'Bad Request',
        errorCode: 'PIX_INSUFFICIENT_BALANCE',
      },
    ],
  },
);

export const OAuthError = Type.Object(
  {
    error: Type.String({ description: 'RFC 6749 section 5.2', examples: ['invalid_client'] }),
    error_description: Type.String(),
    error_code: Type.Optional(Type.String({ description: 'the business code of the error catalogue' })),
    hint: Type.Optional(Type.String({ description: 'what to send instead' })),
  },
  { $id: 'OAuthError', description: 'RFC 6749 error (the /oauth/token endpoint)' },
);

export { ShortError };

export const errorSchemas = [ApiError, ShortError, OAuthError];
