/**
 * The reference's authentication: opaque bearer tokens held in memory (an API key map), of the
 * length the service's tokens have, so the request headers weigh the same.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function bearerTokens() {
  const accounts = new Map<string, number>();
  return {
    issue(accountId: number, length: number): string {
      const token = randomBytes(Math.ceil((length * 3) / 4) + 3).toString('base64url').slice(0, length);
      accounts.set(token, accountId);
      return token;
    },
    /** The caller's account id, or undefined after answering 401. */
    accountOf(request: FastifyRequest, reply: FastifyReply): number | undefined {
      const header = request.headers.authorization;
      const id = header?.startsWith('Bearer ') ? accounts.get(header.slice(7)) : undefined;
      if (id === undefined) void reply.code(401).send({ error: 'unauthorized' });
      return id;
    },
  };
}
