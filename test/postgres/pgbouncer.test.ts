import http from 'node:http';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { prepared } from '../../src/db/prepared.ts';
import { EVENT_TYPES } from '../../src/webhooks/http-schemas.ts';
import { cpf } from '../factories.ts';
import { createOwnDatabase } from '../deployment/instances-kit.ts';
import { pgbouncerMissing, PGBOUNCER_REQUIRED, startPgbouncer, type Pgbouncer } from './pgbouncer-kit.ts';
import { pgUrl } from './pg-tools.ts';
import { startSandboxService, until, type SandboxService } from './sandbox-process-kit.ts';

/**
 * The service behind Debian's PgBouncer 1.18 in transaction mode with its default settings
 * (issue 31 item 2): DATABASE_URL points at PgBouncer and DATABASE_PREPARED_STATEMENTS=false.
 * Without that flag the service does not even start there (PgBouncer refuses the startup
 * parameters that used to carry the bounds), and named statements fail between server sessions.
 */
const missing = pgbouncerMissing();
if (missing && PGBOUNCER_REQUIRED) throw new Error(`PGBOUNCER_REQUIRED is set but ${missing}`);

let bouncer: Pgbouncer;
let receiver: http.Server;
let hookUrl: string;
const received: string[] = [];

beforeAll(async () => {
  if (missing) return;
  bouncer = await startPgbouncer(pgUrl());
  receiver = http.createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
}, 60_000);

afterAll(async () => {
  receiver?.close();
  await bouncer?.stop();
});

/** Waits until nothing is pending: transactions settled, deliveries delivered. */
async function settled(side: pg.Client, withinMs: number) {
  await until(
    async () => {
      const { rows } = await side.query<{ pending: number }>(
        "SELECT (SELECT count(*) FROM transactions WHERE status = 'PENDING')::int + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS pending",
      );
      return rows[0]!.pending === 0;
    },
    withinMs,
    'transactions and webhook deliveries still pending',
  );
}

/** Cash-outs, charges created, paid and partly refunded, by `clients` clients at once; every answer's status. */
async function mixedLoad(s: SandboxService, rounds: number, clients: number) {
  const payers = await Promise.all(Array.from({ length: 3 }, () => s.account(100_000)));
  const shop = await s.account(0);
  for (const account of [...payers, shop]) {
    for (const eventType of EVENT_TYPES) {
      const hook = await s.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType, url: hookUrl });
      expect(hook.status, hook.text).toBe(201);
    }
  }
  const statuses: Array<{ what: string; status: number; text: string }> = [];
  const note = <R extends { status: number; text: string }>(what: string, res: R): R => {
    statuses.push({ what, status: res.status, text: res.status >= 300 ? res.text : '' });
    return res;
  };
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let r = 0; r < rounds; r++) {
        n += 1;
        const payer = payers[(c + r) % payers.length]!;
        note('cash-out', await payer.api('POST', '/api/pix/cash-out', s.cashOut(1 + (n % 5))));
        const charge = note(
          'charge',
          await shop.api(
            'POST',
            '/api/pix/cash-in',
            { transaction: { value: 20, description: `Pedido ${n}`, externalId: `pool-${c}-${r}` }, payer: { fullName: 'Cliente', document: cpf(4200 + n) } },
            { 'x-sandbox-scenario': 'pending' },
          ),
        );
        if (charge.status !== 201) continue;
        const paid = note('pay', await shop.api('POST', `/sandbox/charges/${charge.body.transactionId}/pay`, { payer: { name: 'Cliente', document: cpf(4200 + n), ispb: '60746948' } }));
        if (paid.status !== 200) continue;
        note('refund', await shop.api('POST', `/api/pix/refund-in/${charge.body.transactionId}`, { refundValue: 5, externalId: `dev-${c}-${r}` }));
      }
    }),
  );
  return statuses;
}

async function expectLedgerGreen(s: SandboxService) {
  const ledger = await s.admin('GET', '/admin/ledger/check');
  expect(ledger.status).toBe(200);
  expect(ledger.body).toMatchObject({ ok: true, drift: { count: 0 }, negativeBalances: { count: 0 }, unbalancedJournals: { count: 0 } });
}

describe.skipIf(missing !== undefined)('through PgBouncer in transaction mode (PostgreSQL, DATABASE_PREPARED_STATEMENTS=false)', () => {
  it('every wait stays bounded: the bounds travel with each transaction and each single statement', async () => {
    const own = await createOwnDatabase(pgUrl());
    const side = new pg.Client({ connectionString: own.url });
    let database: Database | undefined;
    try {
      await side.connect();
      await side.query('CREATE TABLE pool_probe (id int PRIMARY KEY, n int NOT NULL); INSERT INTO pool_probe VALUES (1, 0)');
      database = await openDatabase({
        databaseUrl: bouncer.urlFor(own.url),
        dataDir: 'unused',
        preparedStatements: false,
        poolSize: 3,
        timeouts: { statementMs: 1_500, lockMs: 300, idleInTransactionMs: 4_000, queryMs: 20_000 },
      });
      const db = database.db;
      const show = async (name: string) => (await sql.raw<Record<string, string>>(`SHOW ${name}`).execute(db)).rows[0]![name];
      // A single statement outside a transaction, and one inside: both under the service's bounds.
      expect(await show('statement_timeout')).toBe('1500ms');
      expect(await show('lock_timeout')).toBe('300ms');
      const inside = await db.transaction().execute(async (trx) => [
        (await sql<{ lock_timeout: string }>`SHOW lock_timeout`.execute(trx)).rows[0]!.lock_timeout,
        (await sql<{ idle_in_transaction_session_timeout: string }>`SHOW idle_in_transaction_session_timeout`.execute(trx)).rows[0]!.idle_in_transaction_session_timeout,
      ]);
      expect(inside).toEqual(['300ms', '4s']);
      // The settings are the transaction's only: nothing leaks into the server session PgBouncer hands on.
      const direct = new pg.Client({ connectionString: bouncer.urlFor(own.url) });
      await direct.connect();
      expect((await direct.query('SHOW lock_timeout')).rows[0].lock_timeout).toBe('0');
      await direct.end();
      // Statements marked as prepared run unnamed, again and again, whatever server session they land on.
      for (let i = 0; i < 20; i++) {
        const { rows } = await sql<{ v: number }>`${prepared('pool_probe_read')}SELECT n + ${i}::int AS v FROM pool_probe WHERE id = 1`.execute(db);
        expect(rows[0]!.v).toBe(i);
      }
      // A lock held elsewhere: the wait ends at the lock timeout, outside a transaction and inside one.
      await side.query('BEGIN');
      await side.query('SELECT * FROM pool_probe WHERE id = 1 FOR UPDATE');
      const started = performance.now();
      await expect(sql`UPDATE pool_probe SET n = n + 1 WHERE id = ${1}`.execute(db)).rejects.toMatchObject({ code: '55P03' });
      await expect(db.transaction().execute((trx) => sql`UPDATE pool_probe SET n = n + 1 WHERE id = ${1}`.execute(trx))).rejects.toMatchObject({ code: '55P03' });
      // Far below the client's 20 s query timeout: the server ended both waits.
      expect(performance.now() - started).toBeLessThan(15_000);
      // A statement that runs too long is cancelled by the statement timeout.
      await expect(sql`SELECT pg_sleep(${5})`.execute(db)).rejects.toMatchObject({ code: '57014' });
      await side.query('ROLLBACK');
    } finally {
      await database?.close();
      await side.end().catch(() => {});
      await own.drop();
    }
  }, 60_000);

  it('mixed load with LISTEN on a direct session (DATABASE_LISTEN_URL): no 5xx, everything settled and delivered, ledger green', async () => {
    const s = await startSandboxService(pgUrl(), {
      workers: 1,
      throughPort: bouncer.port,
      env: { DATABASE_PREPARED_STATEMENTS: 'false', SANDBOX_SETTLEMENT_DELAY_MS: '200' },
      envFor: (url) => ({ DATABASE_LISTEN_URL: url }),
    });
    try {
      received.length = 0;
      const statuses = await mixedLoad(s, 4, 8);
      expect(statuses.filter((r) => r.status >= 500)).toEqual([]);
      expect(statuses.filter((r) => r.status >= 300)).toEqual([]);
      await settled(s.side, 60_000);
      const { rows } = await s.side.query<{ delivered: number; listening: number }>(
        `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered')::int AS delivered,
                (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %')::int AS listening`,
      );
      expect(rows[0]!.delivered).toBeGreaterThan(0);
      expect(new Set(received).size).toBe(rows[0]!.delivered);
      // The listener's session is a direct one (PgBouncer never runs a LISTEN).
      expect(rows[0]!.listening).toBeGreaterThan(0);
      await expectLedgerGreen(s);
    } finally {
      await s.stop();
    }
  }, 240_000);

  it('without DATABASE_LISTEN_URL nothing listens through the pooler, and due work is found by polling', async () => {
    const s = await startSandboxService(pgUrl(), {
      workers: 1,
      throughPort: bouncer.port,
      env: { DATABASE_PREPARED_STATEMENTS: 'false', SANDBOX_SETTLEMENT_DELAY_MS: '200' },
    });
    try {
      received.length = 0;
      const statuses = await mixedLoad(s, 2, 4);
      expect(statuses.filter((r) => r.status >= 300)).toEqual([]);
      await settled(s.side, 60_000);
      expect(s.service.lines().some((l) => typeof l.msg === 'string' && l.msg.startsWith('database: no LISTEN session'))).toBe(true);
      const { rows } = await s.side.query<{ listening: number }>(
        "SELECT count(*)::int AS listening FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'",
      );
      expect(rows[0]!.listening).toBe(0);
      await expectLedgerGreen(s);
    } finally {
      await s.stop();
    }
  }, 240_000);
});
