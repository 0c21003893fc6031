import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../container.ts';
import { parseEventTypes } from '../services/events/event-log.service.ts';


/**
 * Answers a live events stream (public and admin routes): checks the filter and Last-Event-ID (a 400
 * naming either, before any byte of the stream), then hands the response to the event streams. When
 * the service is closing, an HTTP/1.1 connection ends with its stream, so the drain does not wait
 * for the client to hang up.
 */
export async function sendEventStream(
  c: Pick<Container, 'eventLog' | 'eventStreams' | 'drain'>,
  accountId: number,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const types = parseEventTypes((request.query as { type?: string | undefined }).type);
  const lastEventId = request.headers['last-event-id'];
  const from = await c.eventLog.streamStart(accountId, typeof lastEventId === 'string' ? lastEventId : undefined);
  const stream = c.eventStreams.open(accountId, { from, types });
  reply.raw.on('close', () => stream.close());
  stream.onClose(() => {
    if (c.drain.closing && request.raw.httpVersionMajor === 1) reply.raw.once('finish', () => request.raw.socket.end());
  });
  return reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    // nginx (deploy/): pass each event on at once instead of buffering the answer.
    .header('x-accel-buffering', 'no')
    .send(stream.body);
}

/** Sends JSON text written by hand (the events' exact payloads) as the answer. */
export function sendJsonText(reply: FastifyReply, text: string) {
  return reply.type('application/json; charset=utf-8').send(text);
}
