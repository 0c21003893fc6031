import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../auth/auth-helpers.ts';
import { startHarness, type Harness } from '../harness.ts';
import { pgUrl } from './pg-tools.ts';
import { startStatementCounter } from './statement-counter.ts';

let h: Harness;
let counter: Awaited<ReturnType<typeof startStatementCounter>>;
beforeAll(async () => {
  const target = new URL(pgUrl());
  counter = await startStatementCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const via = new URL(pgUrl());
  via.hostname = '127.0.0.1';
  via.port = String(counter.port);
  h = await startHarness({ postgres: { url: via.toString() } });
});
afterAll(async () => {
  await h?.close();
  await counter?.close();
});

describe('statements', () => {
  it('counts', async () => {
    const x = await client(h);
    const token = () =>
      h.app.inject({ method: 'POST', url: '/api/auth/token', remoteAddress: '198.51.100.1', headers: { 'x-ssl-client-cert': encodeURIComponent(x.pem) }, payload: { clientId: x.clientId, clientSecret: x.clientSecret } });
    for (let i = 0; i < 3; i++) expect((await token()).statusCode).toBe(201);
    const pats = ['token_identity', 'rate_limit_hit_many', 'rate_limit_give_back', 'signing', 'BEGIN', 'COMMIT', 'access', 'lease', 'jwks', 'key', 'SELECT', 'INSERT', 'UPDATE', 'DELETE', 'pg_', 'now'];
    const b = pats.map((p) => counter.executed(new RegExp(p, 'i')));
    const before = counter.statements;
    for (let i = 0; i < 10; i++) expect((await token()).statusCode).toBe(201);
    console.log('STATEMENTS per token', (counter.statements - before) / 10, pats.map((p, i) => p + '=' + (counter.executed(new RegExp(p, 'i')) - b[i]!) / 10));
  });
});
