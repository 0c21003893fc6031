/**
 * A cash-out reference (cash-out-server.ts) in a process of its own, as the service runs in one:
 * `REFERENCE_SHAPE` (record | update), `DATABASE_URL` (its own database; unset: in-process PGlite),
 * `PORT`. Prints "reference listening" once it listens; stops on SIGTERM.
 */
import { startCashOutReference, type ReferenceShape } from './cash-out-server.ts';

const shape = (process.env.REFERENCE_SHAPE ?? 'record') as ReferenceShape;
if (shape !== 'record' && shape !== 'update') throw new Error(`REFERENCE_SHAPE=${shape}: record or update`);
const databaseUrl = process.env.DATABASE_URL;
const reference = await startCashOutReference(databaseUrl ? 'postgres' : 'pglite', shape, {
  ...(databaseUrl ? { databaseUrl } : {}),
  port: Number(process.env.PORT ?? 0),
});
console.log(`reference listening on ${reference.origin} (${shape})`);
const stop = async () => {
  await reference.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
