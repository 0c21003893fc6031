import { STATUS_CODES } from 'node:http';
import type { FastifyError } from 'fastify';
import { catalogue, type ErrorCode } from '../../domain/errors/catalogue.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../../db/db-faults.ts';
import { validationMessages } from '../validation.ts';

/** Any failure, reduced to what every error format needs. */
export interface Problem {
  status: number;
  /** The envelope's `code`: `HTTP_ERROR` for generic errors, else the business code. */
  code: string;
  /** The catalogue code, also for generic errors (the OAuth form and logs use it). */
  catalogueCode: ErrorCode;
  message: string | string[];
  userMessage: string;
  errorCode?: string;
  details?: Record<string, unknown>;
  /** Headers the answer must carry (e.g. Retry-After). */
  headers?: Record<string, string>;
  /** True for failures of ours (5xx not chosen by a rule): logged with the stack. */
  unexpected: boolean;
  /** True when the database could not serve the request (lost connection, a bounded wait ran out). */
  databaseUnavailable?: boolean;
}

export const reasonPhrase = (status: number) => STATUS_CODES[status] ?? 'Error';

function fromCatalogue(code: ErrorCode, message?: string | string[], details?: Record<string, unknown>): Problem {
  const spec = catalogue[code] as { status: number; message: string; userMessage: string; generic?: true; errorCode?: string };
  return {
    status: spec.status,
    code: spec.generic ? 'HTTP_ERROR' : code,
    catalogueCode: code,
    message: message ?? spec.message,
    userMessage: spec.userMessage,
    ...(spec.generic ? {} : { errorCode: spec.errorCode ?? code }),
    ...(details ? { details } : {}),
    unexpected: false,
  };
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_FAILED',
};

export function toProblem(error: unknown): Problem {
  if (error instanceof DomainError) {
    const problem = fromCatalogue(error.code, error.message, error.details);
    const retryAfter = error.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number') problem.headers = { 'retry-after': String(retryAfter) };
    return problem;
  }
  if (error instanceof ValidationError) return fromCatalogue('VALIDATION_FAILED', error.messages);
  const e = error as FastifyError & { validation?: any[]; validationContext?: string };
  if (Array.isArray(e?.validation)) {
    return fromCatalogue('VALIDATION_FAILED', validationMessages(e.validation, e.validationContext));
  }
  if (e?.code && FASTIFY_CODES[e.code]) {
    const code = FASTIFY_CODES[e.code]!;
    return fromCatalogue(code, code === 'VALIDATION_FAILED' ? [e.message] : catalogue[code].message);
  }
  if (e?.name === 'JsonBodyError') return fromCatalogue('VALIDATION_FAILED', [e.message]);
  // A lost connection, a restart, a lock or statement that ran past its bound: an availability
  // answer the client retries, not a bug of ours.
  if (isDatabaseUnavailable(error)) {
    return {
      ...fromCatalogue('SERVICE_UNAVAILABLE', 'The database cannot serve this request right now. Retry after the time in the Retry-After header; a retry with the same idempotency key or externalId never applies a request twice.'),
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
      databaseUnavailable: true,
    };
  }
  // A framework error with a client status (e.g. a 4xx of a plugin) keeps its status.
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const generic = status === 404 ? 'NOT_FOUND' : status === 429 ? 'RATE_LIMITED' : 'VALIDATION_FAILED';
    return { ...fromCatalogue(generic, status === 400 ? [e.message] : e.message), status };
  }
  return { ...fromCatalogue('INTERNAL'), unexpected: true };
}
