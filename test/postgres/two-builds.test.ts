import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { readFunctionSources } from '../../src/db/function-sources.ts';
import { buildGeneration } from '../../src/db/migrate.ts';
import { ADMIN, asAdmin, call, createOwnDatabase, freePort, startInstance, type Instance } from '../deployment/instances-kit.ts';
import { cpf } from '../factories.ts';
import { until } from './sandbox-process-kit.ts';

/**
 * Issue 28 item 4, "Done means": the previous release of the code (83dcc9f, the last landed main before
 * function versions) and this build run on ONE database, as during a rolling deploy, each started and
 * restarted in both orders while clients send cash-outs to whichever instance is up (a load balancer
 * takes an instance out before it stops, and a request whose connection failed goes to the other one
 * with the same externalId). Proven: no request fails; no function body, trigger function or CHECK
 * one build wrote is changed by the other's start; each instance stays ready; every acknowledged
 * cash-out exists once and ends CONFIRMED; the ledger check is green. And GET /ready names the reason
 * when a newer build marks the schema as needing a newer generation.
 */
const PREVIOUS_RELEASE = '83dcc9f9edd18fac6f78c47e3ad5d3657c99ad44';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The previous release's code in a folder of its own, sharing this checkout's node_modules. */
function checkoutPreviousRelease(dir: string): string {
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', `${PREVIOUS_RELEASE}^{commit}`], { encoding: 'utf8' }).trim();
  const folder = path.join(dir, 'previous');
  mkdirSync(folder);
  const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', commit, 'src', 'package.json', 'tsconfig.json'], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', folder], { input: archive });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  return folder;
}

describe('two builds on one database: the previous release and this one, restarted in both orders under cash-outs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-two-builds-'));
  let db: Awaited<ReturnType<typeof createOwnDatabase>> | undefined;
  let side: pg.Client | undefined;
  const running = new Map<string, Instance>();

  afterAll(async () => {
    await Promise.all([...running.values()].map((i) => i.stop()));
    await side?.end().catch(() => {});
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('no request fails, no body goes back, each build keeps its own rules, the ledger check is green', async () => {
    const previous = checkoutPreviousRelease(dir);
    db = await createOwnDatabase(process.env.TEST_DATABASE_URL!);
    side = new pg.Client({ connectionString: db.url, application_name: 'pix-test-side' });
    await side.connect();
    const ports = { current: await freePort(), previous: await freePort() };
    // One issuer for both: a token either build signed is valid at the other.
    const publicUrl = `http://127.0.0.1:${ports.current}`;
    const env = (build: 'current' | 'previous') => ({
      MODE: 'sandbox',
      PORT: String(ports[build]),
      PUBLIC_URL: publicUrl,
      DATA_DIR: path.join(dir, `data-${build}`),
      SANDBOX_SETTLEMENT_DELAY_MS: '300',
    });
    const start = async (build: 'current' | 'previous') => {
      running.set(build, await startInstance(build, db!.url, env(build), build === 'previous' ? { cwd: previous } : {}));
    };
    /** A load balancer's view: instances taken out before they stop. */
    const up = new Set<'current' | 'previous'>();
    const restart = async (build: 'current' | 'previous') => {
      up.delete(build);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await running.get(build)!.stop()).toBe(0);
      running.delete(build);
      await start(build);
      up.add(build);
    };

    // This build first (it migrates the fresh database), then the previous release beside it.
    await start('current');
    up.add('current');
    await start('previous');
    up.add('previous');
    const base = (build: 'current' | 'previous') => `http://127.0.0.1:${ports[build]}`;

    // Accounts, made on this build, funded, each with a certificate-bound token.
    const accounts: Array<{ headers: Record<string, string> }> = [];
    for (let i = 0; i < 4; i++) {
      const made = await call(base('current'), 'POST', '/admin/accounts', { name: `Duas Versoes ${i}`, document: cpf(920_000 + i * 7_919) }, asAdmin);
      expect(made.status).toBe(201);
      expect((await call(base('current'), 'POST', '/sandbox/deposits', { accountId: made.body.id, amount: 100_000 }, asAdmin)).status).toBe(201);
      const cert = await call(base('current'), 'POST', `/admin/accounts/${made.body.id}/certificates`, {}, asAdmin);
      const creds = await call(base('current'), 'POST', `/admin/accounts/${made.body.id}/credentials`, {}, asAdmin);
      const certHeader = { 'x-ssl-client-cert': encodeURIComponent(cert.body.certificatePem) };
      const token = await call(base('previous'), 'POST', '/api/auth/token', { clientId: creds.body.clientId, clientSecret: creds.body.clientSecret }, certHeader);
      expect(token.status).toBe(201);
      accounts.push({ headers: { ...certHeader, authorization: `Bearer ${token.body.access_token}` } });
    }

    // What each build wrote: every function body and every CHECK of the schema.
    const bodies = async () =>
      Object.fromEntries(
        (await side!.query<{ sig: string; src: string }>(`SELECT oid::regprocedure::text AS sig, prosrc AS src FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`)).rows.map((r) => [r.sig, r.src]),
      );
    const checks = async () =>
      Object.fromEntries(
        (await side!.query<{ name: string; def: string }>(`SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'c' AND connamespace = 'public'::regnamespace ORDER BY 1`)).rows.map((r) => [r.name, r.def]),
      );
    const ownVersions = readFunctionSources().filter((s) => !s.returnsTrigger).map((s) => s.sqlName);
    const first = await bodies();
    // Both builds' functions are there: this build's versions and the previous release's plain names.
    for (const name of [...ownVersions, 'admit_payouts', 'ledger_apply', 'pix_fee', 'record_auth_failure']) {
      expect(Object.keys(first).some((sig) => sig.startsWith(`${name}(`)), name).toBe(true);
    }
    const firstChecks = await checks();

    // The load: cash-outs from every account, to an instance that is up (alternating), retried on the
    // other with the same externalId when the connection itself failed.
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let loading = true;
    let turn = 0;
    const load = Promise.all(
      accounts.map(async (account, n) => {
        while (loading) {
          const body = { value: 0.01, externalId: `duas-${randomUUID()}`, description: 'duas versoes', details: { key: `destino${n}@example.com`, keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(4242) } };
          let answer: Awaited<ReturnType<typeof call>> | undefined;
          for (let attempt = 0; attempt < 6 && !answer; attempt++) {
            const choices = [...up];
            const build = choices[turn++ % Math.max(choices.length, 1)];
            if (!build) {
              await new Promise((resolve) => setTimeout(resolve, 100));
              continue;
            }
            answer = await call(base(build), 'POST', '/api/pix/cash-out', body, account.headers).catch(() => undefined);
          }
          if (!answer) failures.push(`${body.externalId}: no instance answered`);
          else if (answer.status === 201 || (answer.status === 409 && answer.body?.transactionId)) acknowledged.push(answer.body.transactionId);
          else failures.push(`${body.externalId}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    const enough = async (n: number) => until(() => acknowledged.length >= n, 60_000, `fewer than ${n} cash-outs acknowledged`);
    const ready = async (build: 'current' | 'previous') => {
      const res = await call(base(build), 'GET', '/ready');
      expect(res.status, `${build} /ready: ${JSON.stringify(res.body)}`).toBe(200);
    };

    await enough(20);
    // In both orders: the previous release restarts after this build, then this build after it, twice.
    for (const build of ['previous', 'current', 'previous', 'current'] as const) {
      const before = await bodies();
      const beforeChecks = await checks();
      await restart(build);
      await enough(acknowledged.length + 20);
      // Nothing either build wrote went back: the same bodies, the same CHECKs (a new version may appear, never a change).
      const after = await bodies();
      for (const [sig, src] of Object.entries(before)) expect(after[sig], `${sig} after ${build} restarted`).toBe(src);
      expect(await checks()).toEqual(beforeChecks);
      await ready('current');
      await ready('previous');
    }
    expect(await checks()).toEqual(firstChecks);
    loading = false;
    await load;

    // Every acknowledged cash-out exists once and ends CONFIRMED, whichever build admitted or settled it.
    await until(async () => {
      const { rows } = await side!.query<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE status = 'PENDING' AND kind = 'WITHDRAW'`);
      return Number(rows[0]!.n) === 0;
    }, 60_000, 'cash-outs still PENDING');
    const { rows } = await side.query<{ transaction_id: string; status: string }>(`SELECT transaction_id, status FROM transactions WHERE transaction_id = ANY ($1::uuid[])`, [acknowledged]);
    expect(rows).toHaveLength(new Set(acknowledged).size);
    expect(rows.filter((r) => r.status !== 'CONFIRMED')).toEqual([]);
    expect(failures).toEqual([]);
    for (const build of ['current', 'previous'] as const) {
      const ledger = await call(base(build), 'GET', '/admin/ledger/check', undefined, { authorization: `Bearer ${ADMIN}` });
      expect(ledger.body.ok, `${build}: ${JSON.stringify(ledger.body)}`).toBe(true);
    }

    // A newer build that marks the schema as needing it: this build's /ready answers 503 and says why.
    await side.query(`UPDATE schema_compat SET min_generation = $1`, [buildGeneration() + 1]);
    const refused = await call(base('current'), 'GET', '/ready');
    expect(refused.status).toBe(503);
    expect(refused.body.checks.migrations).toContain(`needs a build of generation ${buildGeneration() + 1} or newer`);
    await side.query(`UPDATE schema_compat SET min_generation = 0`);
    await ready('current');
    console.log(`two builds: ${acknowledged.length} cash-outs acknowledged over 4 restarts, ${failures.length} failed; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  }, 600_000);
});
