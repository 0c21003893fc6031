import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import { cents } from '../../src/domain/money.ts';
import { checkLedger as ledgerInvariants, findLedgerDrift } from '../../src/ledger/ledger.ts';
import { cpf } from '../factories.ts';

/**
 * kill -9 under mixed load: the real service as a child process (src/main.ts on a port of the
 * 4100-4199 range), loaded with cash-outs, on-us and network transfers and deposits while its
 * settlement runs, killed without warning, restarted on the same data; after each restart the ledger
 * must hold (postings sum to balances, no negative balance) and every acknowledged payout exist, and
 * at the end every acknowledged payout exists exactly once.
 */
export const ADMIN = 'kill9-admin-token-0123456789abcdef';

export function startService(env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, MODE: 'sandbox', ADMIN_TOKEN: ADMIN, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SANDBOX_SETTLEMENT_DELAY_MS: '100', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

export async function waitHealthy(base: string, child: ChildProcess, output: () => string, withinMs = 60_000) {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`service exited ${child.exitCode}: ${output()}`);
    try {
      const res = await fetch(`${base}/health`);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service not healthy in time: ${output()}`);
}

export async function kill9(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text, json: () => JSON.parse(text) };
}

export interface Client {
  id: number;
  pixKey: string;
  headers: Record<string, string>;
}

/** Accounts, funds and tokens through the public admin and token routes. */
export async function setUp(base: string, count: number): Promise<Client[]> {
  const admin = { authorization: `Bearer ${ADMIN}` };
  const out: Client[] = [];
  for (let i = 0; i < count; i++) {
    const acc = await call(base, 'POST', '/admin/accounts', admin, { name: `Kill Nine ${i}`, document: cpf(700_000 + i * 7919 + Math.floor(Math.random() * 1e5)) });
    if (acc.status !== 201) throw new Error(`account: ${acc.status} ${acc.body}`);
    const { id, pixKey } = acc.json();
    const dep = await call(base, 'POST', '/sandbox/deposits', admin, { accountId: id, amount: 5_000 });
    if (dep.status !== 201) throw new Error(`deposit: ${dep.status} ${dep.body}`);
    const cert = await call(base, 'POST', `/admin/accounts/${id}/certificates`, admin, {});
    const creds = await call(base, 'POST', `/admin/accounts/${id}/credentials`, admin, {});
    const certHeader = { 'x-ssl-client-cert': encodeURIComponent(cert.json().certificatePem) };
    const token = await call(base, 'POST', '/api/auth/token', certHeader, { clientId: creds.json().clientId, clientSecret: creds.json().clientSecret });
    if (token.status !== 201) throw new Error(`token: ${token.status} ${token.body}`);
    out.push({ id, pixKey, headers: { ...certHeader, authorization: `Bearer ${token.json().access_token}` } });
  }
  return out;
}

export interface Acknowledged {
  cashOuts: Array<{ client: Client; accountId: number; externalId: string; transactionId: string }>;
  transfers: Array<{ client: Client; key: string; body: unknown; id: number }>;
  /** Answers 500 while the service ran (a bug, not the crash: a request the kill cut gets no answer). */
  serverErrors: string[];
}

/** Mixed load until `stop()`; only answers that arrived (2xx) count as acknowledged. */
export function load(base: string, clients: Client[], acknowledged: Acknowledged) {
  let running = true;
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      const from = pick(clients);
      const amount = 1 + ((i + w) % 5);
      try {
        const kind = (i + w) % 4;
        if (kind === 0) {
          const externalId = `k9-${randomUUID()}`;
          const body = { value: amount, externalId, description: 'kill9', details: { key: 'destino@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(4242) } };
          const res = await call(base, 'POST', '/api/pix/cash-out', from.headers, body);
          if (res.status === 201) acknowledged.cashOuts.push({ client: from, accountId: from.id, externalId, transactionId: res.json().transactionId });
          else if (res.status === 500) acknowledged.serverErrors.push(`cash-out: ${res.body}`);
        } else if (kind === 1 || kind === 2) {
          const to = kind === 1 ? pick(clients.filter((c) => c.id !== from.id)).pixKey : 'destino@example.com';
          const key = randomUUID();
          const body = { pixKey: to, payment: { currency: 'BRL', amount } };
          const res = await call(base, 'POST', '/dict/pix', { ...from.headers, 'x-idempotency-key': key }, body);
          if (res.status === 201) acknowledged.transfers.push({ client: from, key, body, id: res.json().id });
          else if (res.status === 500) acknowledged.serverErrors.push(`/dict/pix: ${res.body}`);
        } else {
          const res = await call(base, 'POST', '/sandbox/deposits', { authorization: `Bearer ${ADMIN}` }, { accountId: from.id, amount });
          if (res.status === 500) acknowledged.serverErrors.push(`deposit: ${res.body}`);
        }
      } catch {
        // The process died under this request: not acknowledged.
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

/**
 * Right after a restart, through the restarted service, before any new load: the ledger check
 * (GET /admin/ledger/check: journals balanced, balances equal to postings, none negative) and every
 * payout acknowledged so far readable by its id.
 */
export async function checkAfterRestart(base: string, acknowledged: Acknowledged, round: number) {
  const ledger = await call(base, 'GET', '/admin/ledger/check', { authorization: `Bearer ${ADMIN}` });
  expect(ledger.status, ledger.body).toBe(200);
  expect(ledger.json(), `ledger after restart ${round + 1}`).toMatchObject({ ok: true, postings: { total: 0 }, drift: { count: 0 }, negativeBalances: { count: 0 }, unbalancedJournals: { count: 0 } });
  for (const c of acknowledged.cashOuts) {
    const res = await call(base, 'GET', `/api/pix/transaction/${c.transactionId}`, c.client.headers);
    expect(res.status, `cash-out ${c.externalId} after restart ${round + 1}: ${res.body}`).toBe(200);
    expect(res.json().externalId).toBe(c.externalId);
  }
  for (const t of acknowledged.transfers) {
    const res = await call(base, 'GET', `/dict/pix/${t.id}`, t.client.headers);
    expect(res.status, `transfer ${t.id} after restart ${round + 1}: ${res.body}`).toBe(200);
  }
}

/** Through the restarted service: acknowledged payouts are there once, and a retry never pays again. */
export async function checkAcknowledged(base: string, acknowledged: Acknowledged) {
  for (const t of acknowledged.transfers.slice(0, 20)) {
    const again = await call(base, 'POST', '/dict/pix', { ...t.client.headers, 'x-idempotency-key': t.key }, t.body);
    expect(again.status, again.body).toBe(201);
    expect(again.json().id).toBe(t.id);
  }
}

/** Straight on the database once the service is stopped (PGlite) or beside it (PostgreSQL). */
export async function checkLedger(db: Kysely<DB>, acknowledged: Acknowledged) {
  // The load must have done something for the checks to mean anything.
  expect(acknowledged.cashOuts.length).toBeGreaterThan(0);
  expect(acknowledged.transfers.length).toBeGreaterThan(0);
  expect(await findLedgerDrift(db)).toEqual([]);
  expect((await ledgerInvariants(db)).ok).toBe(true);
  const negative = await db.selectFrom('accounts').select(['id', 'available', 'blocked']).where((e) => e.or([e('available', '<', cents(0)), e('blocked', '<', cents(0))])).execute();
  expect(negative).toEqual([]);
  for (const c of acknowledged.cashOuts) {
    const rows = await db.selectFrom('transactions').select('transaction_id').where('account_id', '=', c.accountId).where('external_id', '=', c.externalId).execute();
    expect(rows.map((r) => r.transaction_id)).toEqual([c.transactionId]);
  }
  const ids = acknowledged.transfers.map((t) => t.id);
  if (ids.length > 0) {
    const found = await db.selectFrom('transactions').select('id').where('id', 'in', ids).execute();
    expect(found.length).toBe(new Set(ids).size);
  }
  // Each idempotency key paid at most once.
  const doubled = await sql<{ key: string }>`
    SELECT metadata->>'idempotencyKey' AS key FROM transactions
     WHERE origin = 'dict' GROUP BY account_id, metadata->>'idempotencyKey' HAVING count(*) > 1`.execute(db);
  expect(doubled.rows).toEqual([]);
}

/**
 * The crash loop both kill -9 suites run: start the service, load it, kill -9 it mid-load `rounds`
 * times and restart it at once, then check every acknowledged write survived exactly once and stop
 * it. `track` always holds the running service, so the suite's afterAll can kill a leftover.
 */
export async function crashUnderLoad(
  options: { env: Record<string, string>; port: number; rounds: number },
  track: (service: ReturnType<typeof startService> | undefined) => void,
): Promise<Acknowledged> {
  const base = `http://127.0.0.1:${options.port}`;
  let current = startService(options.env, options.port);
  track(current);
  await waitHealthy(base, current.child, current.output);
  const clients = await setUp(base, 4);
  const acknowledged: Acknowledged = { cashOuts: [], transfers: [], serverErrors: [] };
  for (let round = 0; round < options.rounds; round++) {
    const running = load(base, clients, acknowledged);
    await new Promise((r) => setTimeout(r, 1_500));
    await kill9(current.child);
    await running.stop();
    // Restarted at once: on PGlite the folder lock's owner is dead and must not be waited for.
    current = startService(options.env, options.port);
    track(current);
    await waitHealthy(base, current.child, current.output);
    await checkAfterRestart(base, acknowledged, round);
  }
  expect(acknowledged.serverErrors).toEqual([]);
  await checkAcknowledged(base, acknowledged);
  await stop(current.child);
  track(undefined);
  return acknowledged;
}
