import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReadCaller, ReadRouting } from '../db/read-routing.ts';

/** Methods that only read (RFC 9110 safe methods): they raise no fence. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who wrote, for read-your-writes (src/db/read-routing.ts): the account of a bearer token or of a
 * portal member; the operators for the admin API, the sandbox tools and portal operators. Token
 * requests, sign-ins and the provider's notices are nobody's reads to protect.
 */
export function writersOf(request: FastifyRequest): ReadCaller[] {
  const writers: ReadCaller[] = [];
  const accountId = request.identity?.accountId;
  if (accountId !== undefined) writers.push({ accountId });
  const user = (request as { portal?: { session?: { user: { role: string; accountId: number | null } } } | null }).portal?.session?.user;
  if (user?.role === 'MEMBER' && user.accountId !== null) writers.push({ accountId: user.accountId });
  else if (user) writers.push('operators');
  const path = request.url;
  if (path.startsWith('/admin/') || path.startsWith('/sandbox/')) writers.push('operators');
  return writers;
}

/**
 * onSend: after a write request's work committed and before its answer leaves, the writer's fence is
 * raised, so the very next read (on any instance) waits for the replica to have it. Refusals (4xx)
 * changed nothing; a 5xx may have committed before failing, so it raises the fence too.
 */
export function raiseReadFences(reads: ReadRouting) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (SAFE.has(request.method)) return payload;
    if (reply.statusCode >= 400 && reply.statusCode < 500) return payload;
    await reads.noteWrite(writersOf(request));
    return payload;
  };
}
