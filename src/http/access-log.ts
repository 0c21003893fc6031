import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseTraceparent } from '../observability/trace-context.ts';

/** The error code each refused or failed request answered with (set where the error answer is sent). */
const errorCodes = new WeakMap<FastifyRequest, { code: string; reason?: string }>();

/**
 * Notes the code of the error answer `request` gets, for its access line: `code` is the one the
 * client received (`HTTP_ERROR` for a generic error, issue 30), `reason` the catalogue's more precise
 * one when it differs (`UNAUTHORIZED`, `RATE_LIMITED`...), so on-call can still tell them apart.
 */
export function noteErrorCode(request: FastifyRequest, code: string, reason?: string): void {
  errorCodes.set(request, reason !== undefined && reason !== code ? { code, reason } : { code });
}

/** Who called and how, read when the request arrives (over HTTP/2 the stream's socket is gone by its end). */
const clients = new WeakMap<FastifyRequest, { ip: string | undefined; proto: string }>();

/**
 * Notes the client's address and protocol as the request arrives: `request.ip` and
 * `request.protocol` (a trusted proxy's X-Forwarded-For / -Proto, else the socket's). A TLS server
 * (`tls`: TLS_CERT_FILE set) answers every connection, HTTP/2 included, over TLS.
 */
export function noteClient(request: FastifyRequest, tls: boolean): void {
  clients.set(request, { ip: request.ip, proto: request.protocol ?? (tls ? 'https' : 'http') });
}

/**
 * One access line per answer, at info, refusals included (401, 403, 404, 429: on-call must find a
 * customer's failing calls): `status`, `code` (the error code the client received, when the answer
 * is an error) and `reason` (the precise code behind a generic `HTTP_ERROR`), `ip`
 * (the client's: a trusted proxy's X-Forwarded-For, else the socket's), `proto` and `httpVersion`,
 * and `traceId` when a valid W3C `traceparent` came in.
 */
export function accessLine(request: FastifyRequest, reply: FastifyReply) {
  const error = errorCodes.get(request);
  const traceId = parseTraceparent(request.headers.traceparent)?.traceId;
  const client = clients.get(request);
  return {
    method: request.method,
    route: request.routeOptions.url ?? 'unmatched',
    status: reply.statusCode,
    ...(error !== undefined ? error : {}),
    ms: Math.round(reply.elapsedTime),
    ip: client?.ip,
    proto: client?.proto,
    httpVersion: request.raw.httpVersion,
    ...(traceId !== undefined ? { traceId } : {}),
  };
}
