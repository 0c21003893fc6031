import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { openDatabase } from '../../src/db/database.ts';
import { postgresListen } from '../../src/db/notifications.ts';
import { DEFAULT_DB_TIMEOUTS } from '../../src/db/pg-pool.ts';
import { client } from '../auth/auth-helpers.ts';
import { signedInOperator } from '../portal/portal-client.ts';
import { startHarness, type Harness } from '../harness.ts';
import { pgUrl, schemaOf, sideConnection } from './pg-tools.ts';
import { startStatementCounter } from './statement-counter.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * Two instances on one PostgreSQL schema, both started (both keep an access lease and serve the
 * still-active check from memory): `one` (the harness) and `two`, whose pool goes through a
 * statement counter and whose listening connection goes through a TCP proxy the tests cut.
 */
let one: Harness;
let two: { c: Container; app: Awaited<ReturnType<typeof buildApp>> };
let counter: Awaited<ReturnType<typeof startStatementCounter>>;
let listenProxy: TcpProxy;
let operator: Awaited<ReturnType<typeof signedInOperator>>;

const via = (port: number) => {
  const url = new URL(pgUrl());
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
};

beforeAll(async () => {
  one = await startHarness();
  one.c.start();
  const target = new URL(pgUrl());
  counter = await startStatementCounter({ host: target.hostname, port: Number(target.port || 5432) });
  listenProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const schema = await schemaOf(one);
  const database = await openDatabase({ databaseUrl: via(counter.port), dataDir: 'memory://', schema, poolSize: 5 });
  const listen = postgresListen({
    open: async () => ({
      config: { connectionString: via(listenProxy.port), options: `-c search_path=${schema}`, application_name: 'two-listener' },
      lost: () => {},
    }),
    timeouts: { ...DEFAULT_DB_TIMEOUTS, connectMs: 1_000, queryMs: 2_000 },
  });
  const c = await createContainer(one.c.config, { clock: one.clock, database: { ...database, listen }, logger: pino({ level: 'silent' }) });
  two = { c, app: await buildApp(c) };
  await two.app.ready();
  c.start();
  operator = await signedInOperator(one);
});
afterAll(async () => {
  await two?.app.close();
  await two?.c.close();
  await one?.close();
  await counter?.close();
  await listenProxy?.close();
});

type Instance = { c: Container; app: Pick<Harness['app'], 'inject'> };
const instanceOne = (): Instance => ({ c: one.c, app: one.app });
const balance = (i: Instance, token: string) => i.app.inject({ method: 'GET', url: '/api/balance', headers: { authorization: `Bearer ${token}` } });
const grant = (i: Instance, c: Awaited<ReturnType<typeof client>>) =>
  i.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'x-ssl-client-cert': encodeURIComponent(c.pem) },
    payload: { clientId: c.clientId, clientSecret: c.clientSecret },
  });

async function tokenOf(c: Awaited<ReturnType<typeof client>>) {
  const res = await grant(instanceOne(), c);
  expect(res.statusCode).toBe(201);
  return res.json().access_token as string;
}

/** Calls until one is answered from the instance's memory (it takes its lease on first use). */
async function servedFromMemory(i: Instance, token: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const before = i.c.accountTokens.stillActiveStats().remembered;
    expect((await balance(i, token)).statusCode).toBe(200);
    if (i.c.accountTokens.stillActiveStats().remembered > before) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the still-active answer was never served from memory');
}

/** Matches the still-active query (bearer-authenticator.ts) in the counter's statement texts. */
const STILL_ACTIVE = /from "credentials" inner join "certificates"/i;

async function until(check: () => boolean | Promise<boolean>, withinMs: number, what: string) {
  const end = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the still-active check from memory, exact across two instances on PostgreSQL', () => {
  it('revoked through one instance (admin API for certificates and credentials, portal), refused on the very next request to the other: every round of 40', async () => {
    for (let round = 0; round < 40; round++) {
      const c = await client(one);
      const token = await tokenOf(c);
      // Both instances answer this token from memory right now: the revocation must void both.
      await servedFromMemory(two, token);
      await servedFromMemory(instanceOne(), token);
      if (round % 3 === 0) {
        expect((await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
      } else if (round % 3 === 1) {
        // Credentials are revoked from the operator's admin panel (the portal): the same service call.
        expect((await operator.post(`/portal/admin/accounts/${c.account.id}/credentials/${c.clientId}/revoke`)).statusCode).toBe(303);
      } else {
        // ... or through the admin API (issue 21): its tokens stop at once on every instance.
        expect((await one.admin('DELETE', `/admin/accounts/${c.account.id}/credentials/${c.clientId}`)).statusCode).toBe(204);
      }
      const next = await balance(two, token);
      expect(next.statusCode, `round ${round}: ${next.body}`).toBe(401);
      expect((await balance(instanceOne(), token)).statusCode).toBe(401);
      expect((await grant(two, c)).statusCode).toBe(401);
    }
  });

  it('a steady stream of authenticated requests sends no still-active query once remembered', async () => {
    const c = await client(one);
    const token = await tokenOf(c);
    await servedFromMemory(two, token);
    const queriesBefore = counter.executed(STILL_ACTIVE);
    const statementsBefore = counter.statements;
    for (let i = 0; i < 200; i++) expect((await balance(two, token)).statusCode).toBe(200);
    expect(counter.executed(STILL_ACTIVE) - queriesBefore).toBe(0);
    // The balance itself is read each time: the counter does see this instance's statements.
    expect(counter.statements - statementsBefore).toBeGreaterThanOrEqual(200);
  });

  it('a listener that hears nothing (half-open connection) cannot make a revocation miss: the revocation waits for the acknowledgement', async () => {
    const c = await client(one);
    const token = await tokenOf(c);
    await servedFromMemory(two, token);
    listenProxy.partition(); // two's LISTEN connection stays open, but no notification reaches it
    try {
      // Two keeps serving this token while the revocation runs (so it keeps wanting its lease).
      let revoked = false;
      const busy = (async () => {
        while (!revoked) {
          await balance(two, token);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const started = Date.now();
      const answer = await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`);
      const took = Date.now() - started;
      revoked = true;
      await busy;
      expect(answer.statusCode).toBe(204);
      expect((await balance(two, token)).statusCode).toBe(401);
      // It did wait: for two's heartbeat to find itself behind (at most one renewal period), or
      // for its lease to end; never for longer than a lease.
      expect(took).toBeGreaterThan(50);
      expect(took).toBeLessThan(6_000);
    } finally {
      listenProxy.heal();
      listenProxy.dropAll(); // the silent connection is replaced
    }
    await until(() => two.c.accessLease.state().listening, 15_000, 'two listening again');
  });

  it('an instance whose listening connection is cut asks the database per request (still exact), then remembers again once back', async () => {
    const c = await client(one);
    const token = await tokenOf(c);
    await servedFromMemory(two, token);
    listenProxy.refuse();
    listenProxy.dropAll();
    try {
      await until(() => !two.c.accessLease.state().listening, 5_000, 'two noticing its listener is gone');
      const before = two.c.accountTokens.stillActiveStats();
      const queriesBefore = counter.executed(STILL_ACTIVE);
      for (let i = 0; i < 20; i++) expect((await balance(two, token)).statusCode).toBe(200);
      const after = two.c.accountTokens.stillActiveStats();
      expect(after.remembered - before.remembered).toBe(0);
      expect(after.asked - before.asked).toBe(20);
      expect(counter.executed(STILL_ACTIVE) - queriesBefore).toBe(20);
      // Its lease ended in the database when it stopped listening: a revocation does not wait for it.
      const started = Date.now();
      expect((await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect((await balance(two, token)).statusCode).toBe(401);
    } finally {
      listenProxy.heal();
    }
    await until(() => two.c.accessLease.state().listening, 15_000, 'two listening again');
    const again = await client(one);
    const fresh = await tokenOf(again);
    await servedFromMemory(two, fresh);
    expect((await one.admin('DELETE', `/admin/certificates/${again.fingerprint}`)).statusCode).toBe(204);
    expect((await balance(two, fresh)).statusCode).toBe(401);
  });

  it('an instance that died holding a lease delays a revocation until that lease ends, no longer', async () => {
    const c = await client(one);
    const token = await tokenOf(c);
    await servedFromMemory(two, token);
    // A crashed process's row: a fresh lease, never acknowledging anything again.
    const side = await sideConnection(await schemaOf(one));
    try {
      await side.query(
        `INSERT INTO access_instances (id, seen, lease_until, beat_at, pid, started_at)
         VALUES ('crashed', 0, clock_timestamp() + interval '2 seconds', clock_timestamp(), 1, clock_timestamp())`,
      );
      const started = Date.now();
      expect((await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(1_900); // its lease (2 s), the margin is on top
      expect(took).toBeLessThan(4_000);
      expect((await balance(two, token)).statusCode).toBe(401);
    } finally {
      await side.query(`DELETE FROM access_instances WHERE id = 'crashed'`);
      await side.end();
    }
  });

  it('a new instance joining serves from memory and is exact from its first lease; a stopped one removes its row', async () => {
    const schema = await schemaOf(one);
    const database = await openDatabase({ databaseUrl: pgUrl(), dataDir: 'memory://', schema, poolSize: 3 });
    const c3 = await createContainer(one.c.config, { clock: one.clock, database, logger: pino({ level: 'silent' }) });
    const three = { c: c3, app: await buildApp(c3) };
    await three.app.ready();
    c3.start();
    try {
      const c = await client(one);
      const token = await tokenOf(c);
      await servedFromMemory(three, token);
      await servedFromMemory(two, token);
      expect((await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
      expect((await balance(three, token)).statusCode).toBe(401);
      expect((await balance(two, token)).statusCode).toBe(401);
    } finally {
      await three.app.close();
      await c3.close();
    }
    const rows = await sql<{ id: string }>`SELECT id FROM access_instances WHERE id = ${c3.accessLease.instanceId}`.execute(one.c.db);
    expect(rows.rows).toEqual([]);
  });

  it('the database unreachable from an instance: it never accepts a revoked token (503 while it cannot check, 401 once it can)', async () => {
    const schema = await schemaOf(one);
    const target = new URL(pgUrl());
    const poolProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const database = await openDatabase({
      databaseUrl: via(poolProxy.port),
      dataDir: 'memory://',
      schema,
      poolSize: 3,
      timeouts: { connectMs: 1_000, acquireMs: 1_000, statementMs: 1_000, lockMs: 1_000, queryMs: 1_500, idleInTransactionMs: 2_000 },
    });
    // Its listener is not behind the proxy: it hears the revocation, but cannot acknowledge it.
    const c4 = await createContainer(one.c.config, { clock: one.clock, database, logger: pino({ level: 'silent' }) });
    const four = { c: c4, app: await buildApp(c4) };
    await four.app.ready();
    c4.start();
    try {
      const c = await client(one);
      const token = await tokenOf(c);
      await servedFromMemory(four, token);
      poolProxy.partition();
      const started = Date.now();
      expect((await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
      expect(Date.now() - started).toBeLessThan(6_000);
      const during = await balance(four, token);
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBeDefined();
      poolProxy.heal();
      poolProxy.dropAll();
      await until(async () => (await balance(four, token)).statusCode !== 503, 10_000, 'four reaching its database again');
      expect((await balance(four, token)).statusCode).toBe(401);
    } finally {
      poolProxy.heal();
      await four.app.close();
      await c4.close();
      await poolProxy.close();
    }
  });
});
