/**
 * The bare references for cash-outs and balance reads: what a minimal correct service costs.
 * Fastify (JSON body parsed, keep-alive), its own tables, and per request exactly one statement.
 * Two shapes of `POST /api/pix/cash-out` (201 with a body of the service's shape: transactionId,
 * externalId, status, generateTime; 422 when the balance does not cover it):
 *
 * - `record` (the reference the ratios are taken against, issue 23 item 2): the cash-out is recorded
 *   and the money taken in ONE statement: a CTE that inserts the transfer with
 *   `ON CONFLICT (account_id, external_id) DO NOTHING` (a retried externalId moves nothing) and runs
 *   the guarded balance `UPDATE ... WHERE balance >= amount` only when the transfer was inserted. When
 *   the guard refuses the debit of an inserted transfer, the statement fails (a division by zero on
 *   purpose), so no transfer is ever left without its debit: one statement, one transaction, atomic.
 * - `update` (the lower bound of work, the older reference): only the guarded `UPDATE`, nothing
 *   recorded.
 *
 *   GET /api/balance   SELECT balance FROM accounts WHERE id = $1 -> 200 (the service's shape).
 *
 * On PostgreSQL with a pool of 16 (a database of its own when run as a process, see
 * cash-out-main.ts), or on its own in-process PGlite.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { Engine } from '../lib/env.ts';
import type { LoadAccount } from '../lib/requests.ts';
import { quiet } from '../lib/statement-tap.ts';
import { bearerTokens } from './bearer.ts';
import { openReferenceDb } from './db.ts';
import { listen } from './listen.ts';

export type ReferenceShape = 'record' | 'update';

export async function startCashOutReference(engine: Engine, shape: ReferenceShape = 'record', options: { databaseUrl?: string; port?: number } = {}) {
  const db = await openReferenceDb(engine, options.databaseUrl ? { databaseUrl: options.databaseUrl } : {});
  const accounts = `${db.schema}.accounts`;
  const transfers = `${db.schema}.transfers`;
  await db.setup(`CREATE TABLE ${accounts} (id integer PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0))`);
  await db.setup(
    `CREATE TABLE ${transfers} (id uuid PRIMARY KEY, account_id integer NOT NULL REFERENCES ${accounts} (id), external_id text NOT NULL,
       amount bigint NOT NULL CHECK (amount > 0), created_at timestamptz NOT NULL DEFAULT now(), UNIQUE (account_id, external_id))`,
  );
  const tokens = bearerTokens();
  const app = Fastify({ logger: false });

  const record = `WITH transfer AS (
      INSERT INTO ${transfers} (id, account_id, external_id, amount) VALUES ($1, $2, $3, $4)
      ON CONFLICT (account_id, external_id) DO NOTHING RETURNING id
    ), debit AS (
      UPDATE ${accounts} SET balance = balance - $4 WHERE id = $2 AND balance >= $4 AND EXISTS (SELECT 1 FROM transfer) RETURNING balance
    )
    SELECT (SELECT count(*) FROM transfer) AS inserted, 1 / (1 + (SELECT count(*) FROM debit) - (SELECT count(*) FROM transfer)) AS atomic`;
  const update = `UPDATE ${accounts} SET balance = balance - $1 WHERE id = $2 AND balance >= $1`;

  app.post<{ Body: { value: number; externalId: string } }>('/api/pix/cash-out', async (request, reply) => {
    const accountId = tokens.accountOf(request, reply);
    if (accountId === undefined) return reply;
    const { value, externalId } = request.body;
    const cents = Math.round(value * 100);
    const transactionId = randomUUID();
    if (shape === 'record') {
      try {
        const { rows } = await db.query<{ inserted: string | number }>(record, [transactionId, accountId, externalId, cents]);
        if (Number(rows[0]!.inserted) !== 1) return reply.code(409).send({ error: 'duplicate externalId' });
      } catch (error) {
        if ((error as { code?: string }).code === '22012') return reply.code(422).send({ error: 'insufficient balance' });
        throw error;
      }
    } else {
      const updated = await db.query(update, [cents, accountId]);
      if (updated.rowCount !== 1) return reply.code(422).send({ error: 'insufficient balance' });
    }
    return reply.code(201).send({ transactionId, externalId, status: 'PENDING', generateTime: new Date().toISOString() });
  });

  app.get('/api/balance', async (request, reply) => {
    const accountId = tokens.accountOf(request, reply);
    if (accountId === undefined) return reply;
    const { rows } = await db.query<{ balance: string | number }>(`SELECT balance FROM ${accounts} WHERE id = $1`, [accountId]);
    const balance = Number(rows[0]!.balance) / 100;
    return { grossBalance: balance, blockedBalance: 0, netBalance: balance, consultedAt: new Date().toISOString() };
  });

  let nextId = 1;
  let funded = 0;
  /** n accounts with `funds` BRL each, and a token of `tokenLength` characters for each. */
  async function makeAccounts(n: number, funds: number, tokenLength: number): Promise<LoadAccount[]> {
    const ids = Array.from({ length: n }, () => nextId++);
    const cents = Math.round(funds * 100);
    await db.setup(`INSERT INTO ${accounts} (id, balance) SELECT g, ${cents} FROM generate_series(${ids[0]}, ${ids.at(-1)}) AS g`);
    funded += n * cents;
    return ids.map((id) => ({ id, token: tokens.issue(id, tokenLength) }));
  }
  /** The check after a load: exactly one cent taken per 201 answered (R$ 0.01 each), and one transfer each (record). */
  async function invariants(created: number): Promise<string[]> {
    const { rows } = await quiet(() => db.query<{ total: string | number; transfers: string | number }>(`SELECT (SELECT sum(balance) FROM ${accounts}) AS total, (SELECT count(*) FROM ${transfers}) AS transfers`));
    const broken: string[] = [];
    const taken = funded - Number(rows[0]!.total);
    if (taken !== created) broken.push(`${created} cash-outs answered 201 but ${taken} cents were taken`);
    if (shape === 'record' && Number(rows[0]!.transfers) !== created) broken.push(`${created} cash-outs answered 201 but ${rows[0]!.transfers} transfers are recorded`);
    return broken;
  }

  // Run as a process: the benchmark makes its accounts and checks its invariants through these
  // (not part of the measured load).
  if (options.port !== undefined) {
    app.post<{ Body: { n: number; funds: number; tokenLength: number } }>('/bench/accounts', async (request) => makeAccounts(request.body.n, request.body.funds, request.body.tokenLength));
    app.get<{ Querystring: { created: string } }>('/bench/invariants', async (request) => invariants(Number(request.query.created)));
  }

  const listening = await listen(app, db, options.port ?? 0);
  return { ...listening, makeAccounts, invariants };
}

export type CashOutReference = Awaited<ReturnType<typeof startCashOutReference>>;
