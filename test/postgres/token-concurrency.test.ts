import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { client } from '../auth/auth-helpers.ts';

/**
 * Token requests of many clients behind one address, concurrently. Until issue 20 every request
 * counted its attempt on its address row and gave a right secret's count back, so they all met on
 * one row (~50 tokens/s on a durable table, lock timeouts beyond). Now a right secret writes
 * nothing: its failure keys are read inside its look-up statement (auth-limits.test.ts counts the
 * statements); failures go to the unlogged auth_failures table.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('token requests from one address, concurrently (PostgreSQL)', () => {
  it('the failure counters are unlogged tables (no WAL flush behind a failure)', async () => {
    for (const table of ['auth_failures', 'rate_limit_windows']) {
      const row = await sql<{ relpersistence: string }>`SELECT relpersistence FROM pg_class WHERE oid = ${table}::regclass`.execute(h.c.db);
      expect(row.rows[0]!.relpersistence, table).toBe('u');
    }
  });

  it('240 right secrets, 24 at a time, for 6 clients from one address: every one 201 (no lock timeout, no deadlock: either would be a 503), nothing counted', async () => {
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
    expect(await h.c.db.selectFrom('auth_failures').select(['key', 'failed_at']).execute()).toEqual([]);
  });
});
