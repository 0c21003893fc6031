import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf, type RouteFamily } from '../../src/http/route-contexts.ts';
import { startHarness, type Harness } from '../harness.ts';

/**
 * Issue 22 item 5: each route family receives the services its routes use, never the database; the
 * portal's read-only views come bound to the database from the container.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('narrow contexts', () => {
  const families: RouteFamily[] = ['system', 'api', 'bacen', 'oauth', 'admin', 'network', 'sandbox'];

  it('no family context holds the database handle or the container, only the members it lists', () => {
    for (const family of families) {
      const context = contextOf(h.c, family) as Record<string, unknown>;
      expect(Object.keys(context), family).not.toContain('db');
      expect(Object.keys(context), family).not.toContain('database');
      expect(Object.keys(context).length, family).toBeLessThan(Object.keys(h.c).length / 2);
      for (const [key, value] of Object.entries(context)) expect(value, `${family}.${key}`).toBe((h.c as Record<string, unknown>)[key]);
    }
    expect(Object.keys(contextOf(h.c, 'oauth')).sort()).toEqual(['config', 'tokenGrants']);
  });

  it("the portal's read-only views answer through the container without a database argument", async () => {
    const account = await h.createAccount({ funds: 12.5 });
    const rows = await h.c.portalReads.latestTransactions(account.id, 10);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => Number(r.account_id) === account.id)).toBe(true);
  });
});
