/**
 * A cash-out reference in a process of its own (cash-out-main.ts), on a database of its own on the
 * benchmark's PostgreSQL, as the service runs: the load and the database see both the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminClient } from '../lib/admin-client.ts';
import { inheritedEnv, startChild } from '../lib/child.ts';
import { freePort } from '../lib/pg-cluster.ts';
import type { BenchPostgres } from '../lib/postgres.ts';
import type { LoadAccount } from '../lib/requests.ts';
import type { ReferenceShape } from './cash-out-server.ts';

export async function startReferenceProcess(pgs: BenchPostgres, shape: ReferenceShape) {
  const database = await pgs.createDatabase(`bench_ref_${shape}`);
  const folder = mkdtempSync(path.join(tmpdir(), 'pix-bench-ref-'));
  const port = await freePort();
  const env = { ...inheritedEnv(['DATABASE_URL', 'TEST_DATABASE_URL', 'PORT', 'NODE_OPTIONS']), DATABASE_URL: pgs.urlOf(database), PORT: String(port), REFERENCE_SHAPE: shape };
  const child = await startChild({ entry: 'bench/reference/cash-out-main.ts', env, readyText: 'reference listening', logPath: path.join(folder, 'reference.log') }).catch(
    async (error: unknown) => {
      rmSync(folder, { recursive: true, force: true });
      await pgs.dropDatabase(database);
      throw error;
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  const client = adminClient(origin, '');
  return {
    origin,
    database,
    pid: child.pid,
    makeAccounts: (n: number, funds: number, tokenLength: number): Promise<LoadAccount[]> => client.call('POST', '/bench/accounts', '', { n, funds, tokenLength }),
    invariants: (created: number): Promise<string[]> => client.call('GET', `/bench/invariants?created=${created}`, ''),
    async close(keep = false) {
      await client.close();
      await child.stop();
      rmSync(folder, { recursive: true, force: true });
      if (!keep) await pgs.dropDatabase(database);
    },
  };
}

export type ReferenceProcess = Awaited<ReturnType<typeof startReferenceProcess>>;
