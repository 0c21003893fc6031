/**
 * A cash-out reference in a process of its own (cash-out-main.ts), on a database of its own on the
 * benchmark's PostgreSQL, as the service runs: the load and the database see both the same way.
 */
import { adminClient } from '../lib/admin-client.ts';
import { inheritedEnv, startOnDatabase } from '../lib/child.ts';
import type { BenchPostgres } from '../lib/postgres.ts';
import type { LoadAccount, TokenIdentity } from '../lib/requests.ts';
import type { ReferenceShape } from './cash-out-server.ts';

export async function startReferenceProcess(pgs: BenchPostgres, shape: ReferenceShape) {
  const run = await startOnDatabase(pgs, {
    prefix: `bench_ref_${shape}`,
    entry: 'bench/reference/cash-out-main.ts',
    readyText: 'reference listening',
    env: ({ databaseUrl, port }) => ({ ...inheritedEnv(['DATABASE_URL', 'TEST_DATABASE_URL', 'PORT', 'NODE_OPTIONS']), DATABASE_URL: databaseUrl, PORT: String(port), REFERENCE_SHAPE: shape }),
  });
  const client = adminClient(run.origin, '');
  return {
    origin: run.origin,
    database: run.database,
    pid: run.pid,
    makeAccounts: (n: number, funds: number, tokenLength: number): Promise<LoadAccount[]> => client.call('POST', '/bench/accounts', '', { n, funds, tokenLength }),
    invariants: (created: number): Promise<string[]> => client.call('GET', `/bench/invariants?created=${created}`, ''),
    async close(keep = false) {
      await client.close();
      await run.release(keep);
    },
  };
}

export type ReferenceProcess = Awaited<ReturnType<typeof startReferenceProcess>>;

/** The bare token server (token-main.ts) in a process of its own, on a database of its own. */
export async function startTokenReferenceProcess(pgs: BenchPostgres) {
  const run = await startOnDatabase(pgs, {
    prefix: 'bench_ref_token',
    entry: 'bench/reference/token-main.ts',
    readyText: 'reference listening',
    env: ({ databaseUrl, port }) => ({ ...inheritedEnv(['DATABASE_URL', 'TEST_DATABASE_URL', 'PORT', 'NODE_OPTIONS']), DATABASE_URL: databaseUrl, PORT: String(port) }),
  });
  const client = adminClient(run.origin, '');
  return {
    origin: run.origin,
    database: run.database,
    pid: run.pid,
    makeIdentities: (n: number, certLength: number): Promise<TokenIdentity[]> => client.call('POST', '/bench/identities', '', { n, certLength }),
    async close() {
      await client.close();
      await run.release(false);
    },
  };
}
