/**
 * The bare token server (token-server.ts) in a process of its own, as the service runs in one:
 * `DATABASE_URL` (its own database; unset: in-process PGlite), `PORT`. Prints "reference listening"
 * once it listens; stops on SIGTERM.
 */
import { startTokenReference } from './token-server.ts';

const databaseUrl = process.env.DATABASE_URL;
const reference = await startTokenReference(databaseUrl ? 'postgres' : 'pglite', {
  ...(databaseUrl ? { databaseUrl } : {}),
  port: Number(process.env.PORT ?? 0),
});
console.log(`reference listening on ${reference.origin} (token)`);
const stop = async () => {
  await reference.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
