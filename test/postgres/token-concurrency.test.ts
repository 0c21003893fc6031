import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { client } from '../auth/auth-helpers.ts';

/**
 * Every token request counts its attempt on its caller's address row and gives a right secret's count
 * back (issue 10 item 6), so all token requests from one address meet on one row. On a durable table
 * each of those writes held the row until its commit's WAL flush: 16 clients behind one address got
 * ~50 tokens/s on PostgreSQL and lock timeouts (503) beyond (bench:token). The counters live in an
 * unlogged table, counted and given back in one lock order.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('token requests from one address, concurrently (PostgreSQL)', () => {
  it('the failure counters are an unlogged table (no WAL flush behind each attempt)', async () => {
    const row = await sql<{ relpersistence: string }>`SELECT relpersistence FROM pg_class WHERE oid = 'rate_limit_windows'::regclass`.execute(h.c.db);
    expect(row.rows[0]!.relpersistence).toBe('u');
  });

  it('240 right secrets, 24 at a time, for 6 clients from one address: every one 201 (no lock timeout, no deadlock: either would be a 503), the counters back at zero', async () => {
    const clients = await Promise.all(Array.from({ length: 6 }, () => client(h)));
    const statuses: number[] = [];
    for (let wave = 0; wave < 10; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => {
          const c = clients[i % clients.length]!;
          return h.app.inject({
            method: 'POST',
            url: '/api/auth/token',
            remoteAddress: '203.0.113.77',
            headers: { 'x-ssl-client-cert': encodeURIComponent(c.pem) },
            payload: { clientId: c.clientId, clientSecret: c.clientSecret },
          });
        }),
      );
      statuses.push(...answers.map((a) => a.statusCode));
    }
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    expect(statuses).toHaveLength(240);
    const counters = await h.c.db.selectFrom('rate_limit_windows').select(['bucket', 'hits']).where('bucket', 'like', 'auth-fail:%').where('hits', '>', 0).execute();
    expect(counters).toEqual([]);
  });
});
