import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { openDatabase } from '../../src/db/database.ts';
import { client, requestToken } from '../auth/auth-helpers.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { pgUrl, schemaOf, sideConnection } from './pg-tools.ts';

// Two instances on one PostgreSQL schema: `one` (the harness) and `two`, both started, so both
// remember still-active answers and both listen for changes.
let one: Harness;
let two: { c: Awaited<ReturnType<typeof createContainer>>; app: Awaited<ReturnType<typeof buildApp>> };
beforeAll(async () => {
  one = await startHarness();
  one.c.start();
  const database = await openDatabase({ databaseUrl: pgUrl(), dataDir: 'memory://', schema: await schemaOf(one), poolSize: 5 });
  const config = loadConfig({ MODE: 'sandbox', ADMIN_TOKEN, DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
  const c = await createContainer(config, { clock: one.clock, database, logger: pino({ level: 'silent' }) });
  two = { c, app: await buildApp(c) };
  await two.app.ready();
  c.start();
  // Both listeners connected.
  await new Promise((resolve) => setTimeout(resolve, 500));
});
afterAll(async () => {
  await two?.app.close();
  await two?.c.close();
  await one?.close();
});

const balance = (app: { inject: Harness['app']['inject'] }, token: string) =>
  app.inject({ method: 'GET', url: '/api/balance', headers: { authorization: `Bearer ${token}` } });

async function tokenOf(c: Awaited<ReturnType<typeof client>>) {
  const res = await requestToken(one, encodeURIComponent(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
  expect(res.statusCode).toBe(201);
  return res.json().access_token as string;
}

describe('the still-active check served from memory, forgotten at once on revocation (two instances)', () => {
  it('a certificate revoked through one instance fails on the very next request to the other', async () => {
    const c = await client(one);
    const token = await tokenOf(c);
    expect((await balance(two.app, token)).statusCode).toBe(200);
    expect((await balance(one.app, token)).statusCode).toBe(200);
    expect((await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
    expect((await balance(two.app, token)).statusCode).toBe(401);
    expect((await balance(one.app, token)).statusCode).toBe(401);
  });

  it('a credential revoked by any connection is forgotten by both instances as its notification arrives', async () => {
    const c = await client(one);
    const token = await tokenOf(c);
    expect((await balance(two.app, token)).statusCode).toBe(200);
    expect((await balance(one.app, token)).statusCode).toBe(200);
    const toldTwo = two.c.accountTokens.nextChange(5_000);
    const toldOne = one.c.accountTokens.nextChange(5_000);
    const side = await sideConnection(await schemaOf(one));
    try {
      await side.query('UPDATE credentials SET revoked_at = now() WHERE client_id = $1', [c.clientId]);
    } finally {
      await side.end();
    }
    await Promise.all([toldTwo, toldOne]);
    expect((await balance(two.app, token)).statusCode).toBe(401);
    expect((await balance(one.app, token)).statusCode).toBe(401);
  });
});
