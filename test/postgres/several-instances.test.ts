import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { EVENT_TYPES } from '../../src/webhooks/http-schemas.ts';
import { cpf } from '../factories.ts';
import { asAdmin, call, createOwnDatabase, startInstance, type Instance } from '../deployment/instances-kit.ts';

/**
 * Two service processes on one PostgreSQL database, as several containers behind a balancer: the
 * requests of one client alternate between them, and both run jobs and deliver webhooks.
 */
let db: Awaited<ReturnType<typeof createOwnDatabase>>;
let store: Database;
let instances: Instance[] = [];
let dataDirs: string[] = [];
let receiver: http.Server;
let received: Array<{ id: string; body: any }> = [];
let hookUrl: string;

const on = (i: number) => instances[i % instances.length]!.url;

interface Client {
  id: number;
  pixKey: string;
  token: string;
  fingerprint: string;
  certHeader: string;
  credentials: { clientId: string; clientSecret: string };
}

/** An account with certificate, credentials, a token (asked from instance `i`), a webhook and funds. */
async function client(i: number, funds: number): Promise<Client> {
  const account = await call(on(i), 'POST', '/admin/accounts', { name: `Conta ${i}`, document: cpf(7000 + i) }, asAdmin);
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  const id = account.body.id as number;
  const cert = await call(on(i), 'POST', `/admin/accounts/${id}/certificates`, {}, asAdmin);
  const creds = await call(on(i + 1), 'POST', `/admin/accounts/${id}/credentials`, {}, asAdmin);
  const credentials = { clientId: creds.body.clientId, clientSecret: creds.body.clientSecret };
  const certHeader = encodeURIComponent(cert.body.certificatePem);
  const token = await call(on(i), 'POST', '/api/auth/token', credentials, { 'x-ssl-client-cert': certHeader });
  expect(token.status).toBe(201);
  for (const eventType of EVENT_TYPES) {
    const hook = await call(on(i + 1), 'POST', `/admin/accounts/${id}/webhooks`, { eventType, url: hookUrl }, asAdmin);
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  }
  if (funds > 0) expect((await call(on(i), 'POST', '/sandbox/deposits', { accountId: id, amount: funds }, asAdmin)).status).toBe(201);
  return { id, pixKey: account.body.pixKey, token: token.body.access_token, fingerprint: cert.body.fingerprint, certHeader, credentials };
}

const bearer = (c: Client) => ({ authorization: `Bearer ${c.token}` });
let seq = 0;
const cashOut = (value: number) => {
  seq += 1;
  return {
    value,
    externalId: `multi-${seq}`,
    details: { key: `pessoa${seq}@example.com`, keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(9000 + seq) },
  };
};

async function settled(timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = (
      await sql<{ pending_tx: number; jobs: number; deliveries: number }>`
        SELECT (SELECT count(*) FROM transactions WHERE status = 'PENDING')::int AS pending_tx,
               (SELECT count(*) FROM jobs WHERE status = 'pending')::int AS jobs,
               (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS deliveries`.execute(store.db)
    ).rows[0]!;
    if (row.pending_tx === 0 && row.deliveries === 0) return row;
    if (Date.now() > until) throw new Error(`not settled: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  received = [];
  // The receiver refuses the first attempt of every delivery (503) and takes the second: each
  // delivery must then take exactly two attempts, whichever instances make them (retry after ~5 s).
  receiver = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const first = !received.some((r) => r.id === id);
      received.push({ id, body: JSON.parse(text) });
      res.writeHead(first ? 503 : 200).end(first ? 'busy' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  db = await createOwnDatabase(process.env.TEST_DATABASE_URL!);
  store = await openDatabase({ databaseUrl: db.url, dataDir: 'memory://', poolSize: 2 });
  dataDirs = ['a', 'b'].map(() => mkdtempSync(path.join(tmpdir(), 'pix-multi-')));
  // Started together: migrations and the sandbox's demo account meet on the same database.
  instances = await Promise.all(
    ['a', 'b'].map((name, i) =>
      startInstance(name, db.url, { MODE: 'sandbox', DATA_DIR: dataDirs[i]!, SANDBOX_SETTLEMENT_DELAY_MS: '200' }),
    ),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await store?.close();
  await db?.drop();
  receiver?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('two instances on one PostgreSQL', () => {
  it('under cash-outs, paid charges and refunds: jobs once, webhooks delivered with exactly the attempts the retry rules give, limits exact, ledger green', async () => {
    const payers = await Promise.all([0, 1, 2].map((i) => client(i, 500)));
    const limited = await client(3, 500);
    const shop = await client(4, 0);

    // A daily limit of R$ 10.00, then 30 cash-outs of R$ 1.00 at once through both instances.
    expect((await call(on(0), 'PATCH', `/admin/accounts/${limited.id}/limits`, { daily: 10 }, asAdmin)).status).toBe(200);
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(on(i), 'POST', '/api/pix/cash-out', cashOut(1), bearer(limited))),
    );
    const accepted = burst.filter((r) => r.status === 201 || r.status === 200);
    expect(accepted).toHaveLength(10);
    expect(burst.filter((r) => r.status >= 500)).toEqual([]);

    // Cash-outs from three accounts, each request on the other instance than the last.
    const outs = await Promise.all(
      payers.flatMap((p, pi) => Array.from({ length: 8 }, (_, i) => call(on(pi + i), 'POST', '/api/pix/cash-out', cashOut(2.5), bearer(p)))),
    );
    expect(outs.map((r) => r.status).filter((s) => s !== 201 && s !== 200)).toEqual([]);

    // Charges created on one instance and paid through the other; then a partial refund of each.
    const charges = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(
          on(i),
          'POST',
          '/api/pix/cash-in',
          { transaction: { value: 20, description: `Pedido ${i}`, externalId: `pedido-${i}` }, payer: { fullName: 'Cliente', document: cpf(4200 + i) } },
          { ...bearer(shop), 'x-sandbox-scenario': 'pending' },
        ),
      ),
    );
    expect(charges.map((r) => r.status)).toEqual(Array(8).fill(201));
    const paid = await Promise.all(
      charges.map((charge, i) =>
        call(on(i + 1), 'POST', `/sandbox/charges/${charge.body.transactionId}/pay`, { payer: { name: 'Cliente', document: cpf(4200 + i), ispb: '60746948' } }, bearer(shop)),
      ),
    );
    expect(paid.map((r) => r.status)).toEqual(Array(8).fill(200));
    const refunds = await Promise.all(
      charges.map((charge, i) =>
        call(on(i), 'POST', `/api/pix/refund-in/${charge.body.transactionId}`, { refundValue: 5, externalId: `dev${i}` }, bearer(shop)),
      ),
    );
    expect(refunds.map((r) => r.status)).toEqual(Array(8).fill(201));

    await settled();

    // Every job ran once: no payout, charge or refund reported its outcome twice.
    const repeated = await sql`
      SELECT transaction_id, type, payload->>'status' AS status, count(*)::int AS n
        FROM events WHERE transaction_id IS NOT NULL
       GROUP BY 1, 2, 3 HAVING count(*) > 1`.execute(store.db);
    expect(repeated.rows).toEqual([]);
    const outcomes = await sql<{ status: string; n: number }>`
      SELECT status, count(*)::int AS n FROM transactions WHERE kind = 'WITHDRAW' AND origin = 'cash_out' GROUP BY status`.execute(store.db);
    expect(outcomes.rows.reduce((sum, r) => sum + r.n, 0)).toBe(10 + 24);
    expect((await sql`SELECT id, kind, last_error FROM jobs WHERE status = 'failed'`.execute(store.db)).rows).toEqual([]);

    // Limits exact: R$ 10.00 went out of the limited account, not a cent more.
    const limitedOut = await sql<{ total: number }>`
      SELECT COALESCE(SUM(original_amount), 0)::int AS total FROM transactions
       WHERE account_id = ${limited.id} AND kind = 'WITHDRAW' AND status <> 'ERROR'`.execute(store.db);
    expect(limitedOut.rows[0]!.total).toBe(1000);

    // Every webhook delivered, each with exactly the two attempts the retry rules give it (one
    // refused, one taken), and each event received: no instance repeated an attempt.
    const deliveries = await sql<{ status: string; attempts: number; logs: number; event_id: string }>`
      SELECT d.status, d.attempts, e.event_id,
             (SELECT count(*) FROM webhook_logs l WHERE l.delivery_id = d.id)::int AS logs
        FROM webhook_deliveries d JOIN events e ON e.id = d.event_id`.execute(store.db);
    // (The sandbox's demo account has no webhooks registered: its deposit has no delivery.)
    const events = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE account_id IN (SELECT account_id FROM webhooks)`.execute(store.db)
    ).rows[0]!.n;
    // One outcome event each: 34 cash-outs, 8 paid charges, 8 refunds, 4 deposits.
    expect(events).toBe(34 + 8 + 8 + 4);
    expect(deliveries.rows.length).toBe(events);
    expect(deliveries.rows.filter((d) => d.status !== 'delivered' || d.attempts !== 2 || d.logs !== 2)).toEqual([]);
    const receivedIds = new Set(received.map((r) => r.id));
    expect(receivedIds.size).toBe(events);
    expect(received.length).toBe(2 * events); // each twice: the refused attempt and its one retry

    // Both instances run the background work and report it; which one claims a given job or
    // delivery is a race (one may take them all on a busy machine), so the counts are checked summed:
    // the instances' own metrics agree with the database, attempt for attempt.
    const sum = (texts: string[], pattern: RegExp) =>
      texts.reduce((total, text) => total + [...text.matchAll(new RegExp(pattern, 'g'))].reduce((n, m) => n + Number(m[1]), 0), 0);
    const texts = await Promise.all(instances.map(async (instance) => (await fetch(`${instance.url}/metrics`)).text()));
    for (const [i, metrics] of texts.entries()) {
      expect(metrics, instances[i]!.name).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
      expect(metrics, instances[i]!.name).toContain('payout_batcher_count{what="batches"}');
      expect(metrics, instances[i]!.name).toContain('# TYPE jobs_total counter');
    }
    expect(sum(texts, /webhook_attempts_total\{outcome="delivered"\} (\d+)/)).toBe(events);
    expect(sum(texts, /webhook_attempts_total\{outcome="retry"\} (\d+)/)).toBe(events);
    expect(sum(texts, /jobs_total\{kind="[a-z._-]+",outcome="done"\} (\d+)/)).toBeGreaterThan(0);

    // The ledger: every account's postings sum to its balances.
    expect(await findLedgerDrift(store.db as never)).toEqual([]);
  }, 240_000);

  it('a certificate revoked through one instance is refused by the other at once (tokens and new grants)', async () => {
    const c = await client(10, 0);
    expect((await call(on(1), 'GET', '/api/balance', undefined, bearer(c))).status).toBe(200);
    const revoke = await call(on(0), 'DELETE', `/admin/certificates/${c.fingerprint}`, undefined, asAdmin);
    expect([200, 204]).toContain(revoke.status);
    const after = await call(on(1), 'GET', '/api/balance', undefined, bearer(c));
    expect(after.status).toBe(401);
    const grant = await call(on(1), 'POST', '/api/auth/token', c.credentials, { 'x-ssl-client-cert': c.certHeader });
    expect(grant.status).toBe(401);
    expect(grant.body.code).toBe('PUB_CERT_NOT_REGISTERED');
  }, 60_000);
});
