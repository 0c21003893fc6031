import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { ADMIN, createOwnDatabase, startInstance, type Instance } from '../deployment/instances-kit.ts';
import { pgUrl } from './pg-tools.ts';
import { startStatementCounter } from './statement-counter.ts';

/**
 * WORKERS=2 on PostgreSQL: the real service (src/main.ts) as a child process, a primary and two
 * workers on one port. Every request below opens its own connection, which the primary hands to
 * the workers in turn; the access log line of each request names the pid that served it.
 */
let db: Awaited<ReturnType<typeof createOwnDatabase>>;
let counter: Awaited<ReturnType<typeof startStatementCounter>>;
let service: Instance;
let dataDir: string;
let workerPids: number[] = [];

/** One request on a connection of its own (no keep-alive), so that any worker may get it. */
function fresh(method: string, url: string, headers: Record<string, string> = {}, body?: unknown) {
  return new Promise<{ status: number; body: any; requestId: string }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${service.url}${url}`,
      {
        method,
        agent: false,
        headers: { ...headers, connection: 'close', ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, requestId: String(res.headers['x-request-id']) }));
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${url}: no answer in 15 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const asAdmin = { authorization: `Bearer ${ADMIN}` };

/** GET /metrics on a connection of its own (any worker may answer it). */
const scrape = () =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(`${service.url}/metrics`, { agent: false, headers: { connection: 'close' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.setTimeout(15_000, () => req.destroy(new Error('GET /metrics: no answer in 15 s')));
    req.on('error', reject);
    req.end();
  });

/** The pid whose access line carries this request id (waits briefly for the line to be written). */
async function pidOf(requestId: string): Promise<number> {
  const until = Date.now() + 5_000;
  for (;;) {
    const line = service.lines().find((l) => l.reqId === requestId && l.msg === 'request');
    if (line) return line.pid as number;
    if (Date.now() > until) throw new Error(`no access line for request ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function pidsOf(requests: Array<{ requestId: string }>) {
  return new Set(await Promise.all(requests.map((r) => pidOf(r.requestId))));
}

/** Matches the still-active query (bearer-authenticator.ts) in the counter's statement texts. */
const STILL_ACTIVE = /from "credentials" inner join "certificates"/i;

beforeAll(async () => {
  db = await createOwnDatabase(pgUrl());
  const target = new URL(pgUrl());
  counter = await startStatementCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const url = new URL(db.url);
  url.hostname = '127.0.0.1';
  url.port = String(counter.port);
  dataDir = mkdtempSync(path.join(tmpdir(), 'pix-workers-'));
  service = await startInstance('workers', url.toString(), { MODE: 'sandbox', WORKERS: '2', DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
  const until = Date.now() + 60_000;
  for (;;) {
    const ready = service.lines().find((l) => l.msg === '2 workers listening');
    if (ready) {
      workerPids = ready.workers;
      break;
    }
    if (Date.now() > until) throw new Error('the two workers did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  if (service?.process.exitCode === null) await service.stop();
  await counter?.close();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('WORKERS=2 on PostgreSQL', () => {
  it('a primary and two workers: requests are served by both pids, the demo account is made once', async () => {
    expect(workerPids).toHaveLength(2);
    expect(workerPids).not.toContain(service.process.pid);
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await fresh('GET', '/health'));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await pidsOf(answers)).toEqual(new Set(workerPids));
    // The sandbox's demo account: made and printed by one worker.
    await until(() => /running in SANDBOX mode/.test(service.output()), 60_000);
    expect(service.output().match(/running in SANDBOX mode/g)).toHaveLength(1);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM accounts WHERE is_demo');
      expect(Number(rows[0]!.n)).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('GET /metrics counts the whole service, whichever worker answers the scrape', async () => {
    const healthCount = (text: string) => Number(/http_requests_total\{method="GET",route="\/health",status="200"\} (\d+)/.exec(text)?.[1] ?? 0);
    const before = await scrape();
    expect(before.status).toBe(200);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await fresh('GET', '/health'));
    // The ten were shared by both workers (the primary hands out connections in turn).
    expect(await pidsOf(answers)).toEqual(new Set(workerPids));
    for (let i = 0; i < 3; i++) {
      const after = await scrape();
      expect(after.status).toBe(200);
      expect(healthCount(after.text) - healthCount(before.text)).toBe(10);
      // Each worker's pool is there too (gauges summed over the workers).
      expect(after.text).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
    }
  });

  it('the backlog gauges are never summed over the workers (each reads the same rows: the largest reading is kept), and build_info is 1', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // Three jobs of a kind no worker runs: due, waiting, and seen by both workers' reads.
      await client.query(`INSERT INTO jobs (kind, run_at, created_at, updated_at) SELECT 'test.not-run', now() - interval '1 minute', now(), now() FROM generate_series(1, 3)`);
      const pending = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE status = 'PENDING' AND kind IN ('WITHDRAW', 'REFUND_IN')`)).rows[0]!.n);
      for (let i = 0; i < 3; i++) {
        const { status, text } = await scrape();
        expect(status).toBe(200);
        expect(text).toMatch(/^jobs_waiting\{kind="test\.not-run"\} 3$/m);
        expect(text).toMatch(new RegExp(`^payouts_pending ${pending}$`, 'm'));
        expect(text).toMatch(/^webhook_deliveries_failing 0$/m);
        expect(text).toMatch(/^build_info\{version="[^"]+"\} 1$/m);
      }
    } finally {
      await client.query(`DELETE FROM jobs WHERE kind = 'test.not-run'`);
      await client.end();
    }
  });

  it('both workers answer from memory, and a revoked certificate is refused by both on the next requests; a new token too', async () => {
    const account = await fresh('POST', '/admin/accounts', asAdmin, { name: 'Conta Workers', document: cpf(424_242) });
    expect(account.status).toBe(201);
    const cert = await fresh('POST', `/admin/accounts/${account.body.id}/certificates`, asAdmin, {});
    const creds = await fresh('POST', `/admin/accounts/${account.body.id}/credentials`, asAdmin, {});
    const certHeader = { 'x-ssl-client-cert': encodeURIComponent(cert.body.certificatePem) };
    const grant = () => fresh('POST', '/api/auth/token', certHeader, { clientId: creds.body.clientId, clientSecret: creds.body.clientSecret });
    const token = await grant();
    expect(token.status).toBe(201);
    const bearer = { ...certHeader, authorization: `Bearer ${token.body.access_token}` };

    const warm = [];
    for (let i = 0; i < 10; i++) warm.push(await fresh('GET', '/api/balance', bearer));
    expect(warm.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await pidsOf(warm)).toEqual(new Set(workerPids));
    // Once each worker holds its lease, the still-active check is not sent to the database.
    const queriesBefore = counter.executed(STILL_ACTIVE);
    const steady = [];
    for (let i = 0; i < 40; i++) steady.push(await fresh('GET', '/api/balance', bearer));
    expect(steady.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(await pidsOf(steady)).toEqual(new Set(workerPids));
    expect(counter.executed(STILL_ACTIVE) - queriesBefore).toBeLessThanOrEqual(2);

    expect((await fresh('DELETE', `/admin/certificates/${cert.body.fingerprint}`, asAdmin)).status).toBe(204);
    const after = [];
    for (let i = 0; i < 10; i++) after.push(await fresh('GET', '/api/balance', bearer));
    expect(after.map((a) => a.status)).toEqual(Array(10).fill(401));
    expect(await pidsOf(after)).toEqual(new Set(workerPids));
    const grants = [];
    for (let i = 0; i < 4; i++) grants.push(await grant());
    expect(grants.map((a) => a.status)).toEqual(Array(4).fill(401));
    expect(await pidsOf(grants)).toEqual(new Set(workerPids));
  });

  it('the sandbox clock advanced through one worker is the clock of both before the advance answers', async () => {
    const day = await fresh('POST', '/sandbox/clock/advance', asAdmin, { seconds: 86_400 });
    expect(day.status).toBe(200);
    const advancedTo = Date.parse(day.body.now);
    expect(advancedTo - Date.now()).toBeGreaterThan(86_000_000);
    const next = [];
    for (let i = 0; i < 6; i++) next.push(await fresh('POST', '/sandbox/clock/advance', asAdmin, { seconds: 1 }));
    expect(await pidsOf(next)).toEqual(new Set(workerPids));
    for (const answer of next) expect(Date.parse(answer.body.now)).toBeGreaterThanOrEqual(advancedTo);
  });

  it('SIGTERM stops the primary and both workers, cleanly and within the bound', async () => {
    const started = Date.now();
    const code = await service.stop();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(12_000);
    for (const pid of workerPids) expect(alive(pid), `worker ${pid} still running`).toBe(false);
    const stopped = service.lines().filter((l) => l.msg === 'shutting down').map((l) => l.pid);
    expect(new Set(stopped)).toEqual(new Set(workerPids));
  });

  it('WORKERS=2 on the embedded database (PGlite) refuses to start, saying why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, MODE: 'sandbox', WORKERS: '2', DATA_DIR: 'memory://', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration: WORKERS must be 1 with the embedded database (PGlite can be opened by one process only)');
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== 'ESRCH';
  }
}

async function until(check: () => boolean, withinMs: number) {
  const end = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
