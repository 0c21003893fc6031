/** A reference server listening on a loopback port, closed with its database. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ReferenceDb } from './db.ts';

export async function listen(app: FastifyInstance, db: ReferenceDb, port = 0) {
  await app.listen({ host: '127.0.0.1', port });
  return {
    origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    server: app.server,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
