/**
 * The bare reference for cash-outs and balance reads: what a minimal correct service costs.
 * Fastify (JSON body parsed, keep-alive), one tiny table `accounts(id, balance)` in its own schema,
 * and per request exactly one statement:
 *
 *   POST /api/pix/cash-out  UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1
 *                           -> 201 with a body of the service's shape (transactionId, externalId,
 *                           status, generateTime); 422 when the balance does not cover it.
 *   GET  /api/balance       SELECT balance FROM accounts WHERE id = $1 -> 200 (the service's shape).
 *
 * The same on PostgreSQL (same server, its own schema, same pool size) and on PGlite (in-process).
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { Engine } from '../lib/env.ts';
import type { LoadAccount } from '../lib/requests.ts';
import { quiet } from '../lib/statement-tap.ts';
import { bearerTokens } from './bearer.ts';
import { openReferenceDb } from './db.ts';
import { listen } from './listen.ts';

export async function startCashOutReference(engine: Engine) {
  const db = await openReferenceDb(engine);
  const table = `${db.schema}.accounts`;
  await db.setup(`CREATE TABLE ${table} (id integer PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0))`);
  const tokens = bearerTokens();
  const app = Fastify({ logger: false });

  app.post<{ Body: { value: number; externalId: string } }>('/api/pix/cash-out', async (request, reply) => {
    const accountId = tokens.accountOf(request, reply);
    if (accountId === undefined) return reply;
    const { value, externalId } = request.body;
    const cents = Math.round(value * 100);
    const updated = await db.query(`UPDATE ${table} SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, [cents, accountId]);
    if (updated.rowCount !== 1) return reply.code(422).send({ error: 'insufficient balance' });
    return reply.code(201).send({ transactionId: randomUUID(), externalId, status: 'PENDING', generateTime: new Date().toISOString() });
  });

  app.get('/api/balance', async (request, reply) => {
    const accountId = tokens.accountOf(request, reply);
    if (accountId === undefined) return reply;
    const { rows } = await db.query<{ balance: string | number }>(`SELECT balance FROM ${table} WHERE id = $1`, [accountId]);
    const balance = Number(rows[0]!.balance) / 100;
    return { grossBalance: balance, blockedBalance: 0, netBalance: balance, consultedAt: new Date().toISOString() };
  });

  const listening = await listen(app, db);
  let nextId = 1;
  let funded = 0;
  return {
    ...listening,
    /** n accounts with `funds` BRL each, and a token of `tokenLength` characters for each. */
    async makeAccounts(n: number, funds: number, tokenLength: number): Promise<LoadAccount[]> {
      const ids = Array.from({ length: n }, () => nextId++);
      const cents = Math.round(funds * 100);
      await db.setup(`INSERT INTO ${table} (id, balance) SELECT g, ${cents} FROM generate_series(${ids[0]}, ${ids.at(-1)}) AS g`);
      funded += n * cents;
      return ids.map((id) => ({ id, token: tokens.issue(id, tokenLength) }));
    },
    /** The check after a load: exactly one cent taken per 201 answered (R$ 0.01 each). */
    async invariants(created: number): Promise<string[]> {
      const { rows } = await quiet(() => db.query<{ total: string | number }>(`SELECT sum(balance) AS total FROM ${table}`));
      const taken = funded - Number(rows[0]!.total);
      return taken === created ? [] : [`${created} cash-outs answered 201 but ${taken} cents were taken`];
    },
  };
}

export type CashOutReference = Awaited<ReturnType<typeof startCashOutReference>>;
