import type { FastifyReply, FastifyRequest } from 'fastify';
import { reasonPhrase, toProblem, type Problem } from './problem.ts';
import { laterPartMessages } from '../validation.ts';
import { noteErrorCode } from '../access-log.ts';

/**
 * The three error formats. The full envelope on `/api`, the short `{statusCode, message, error}` on
 * the compatible family, admin and sandbox, and RFC 6749 on `/oauth/token`.
 */
export type ErrorFormat = 'full' | 'short' | 'oauth';

export function fullEnvelope(problem: Problem, request: FastifyRequest, timestamp: Date) {
  return {
    statusCode: problem.status,
    timestamp: timestamp.toISOString(),
    path: request.url.split('?')[0],
    method: request.method,
    code: problem.code,
    message: problem.message,
    userMessage: problem.userMessage,
    errorId: String(request.id),
    error: reasonPhrase(problem.status),
    ...(problem.errorCode ? { errorCode: problem.errorCode } : {}),
    ...(problem.details ? { details: problem.details } : {}),
  };
}

export function shortForm(problem: Problem) {
  return { statusCode: problem.status, message: problem.message, error: reasonPhrase(problem.status) };
}

const OAUTH_ERRORS: Record<string, string> = {
  UNAUTHORIZED: 'invalid_client',
  PUB_INVALID_CREDENTIALS: 'invalid_client',
  VALIDATION_FAILED: 'invalid_request',
};

export function oauthForm(problem: Problem) {
  const error =
    OAUTH_ERRORS[problem.catalogueCode] ??
    (problem.status >= 500 ? 'server_error' : problem.status === 401 || problem.status === 403 ? 'invalid_client' : 'invalid_request');
  const text = Array.isArray(problem.message) ? problem.message.join('; ') : problem.message;
  return { error, error_description: text, ...(problem.code !== 'HTTP_ERROR' ? { error_code: problem.code } : {}) };
}

/** A Fastify error handler that answers in one format. */
export function errorHandler(format: ErrorFormat, now: () => Date) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const problem = toProblem(error);
    const failedPart = (error as { validation?: unknown; validationContext?: string }).validation ? (error as { validationContext?: string }).validationContext : undefined;
    if (failedPart !== undefined && Array.isArray(problem.message)) problem.message = [...problem.message, ...laterPartMessages(request, failedPart)];
    if (problem.unexpected) request.log.error({ err: error, errorId: request.id }, 'unexpected error');
    else if (problem.databaseUnavailable || problem.status >= 500) {
      // Not a bug, but never silent: the cause (a lost connection, a lock or statement timeout) is logged.
      request.log.warn({ err: error, errorId: request.id, status: problem.status }, 'service unavailable');
    }
    // A refusal (4xx): its access line (info, with its code) says it; this line adds nothing more.
    else request.log.debug({ code: problem.catalogueCode, status: problem.status }, 'request refused');
    return sendProblem(reply, request, problem, format, now());
  };
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: Problem, format: ErrorFormat, at: Date) {
  noteErrorCode(request, problem.code, problem.catalogueCode);
  if (problem.headers) reply.headers(problem.headers);
  reply.code(problem.status).type('application/json; charset=utf-8');
  if (format === 'full') return reply.send(fullEnvelope(problem, request, at));
  if (format === 'oauth') {
    if (problem.status === 401) reply.header('www-authenticate', 'Basic realm="oauth"');
    return reply.send(oauthForm(problem));
  }
  return reply.send(shortForm(problem));
}

/** The format a path answers in, for answers given outside any route (404, early failures). */
export function formatForPath(url: string): ErrorFormat {
  if (url === '/oauth/token' || url.startsWith('/oauth/token?')) return 'oauth';
  if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) return 'full';
  return 'short';
}
