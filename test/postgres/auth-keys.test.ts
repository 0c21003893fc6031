import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeys } from '../../src/services/auth/signing-keys.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('signing keys on PostgreSQL, several instances at once', () => {
  it('instances starting together create exactly one first key', async () => {
    await h.c.db.deleteFrom('signing_keys').execute();
    const instances = Array.from({ length: 6 }, () => createSigningKeys({ db: h.c.db, clock: h.clock }));
    await Promise.all(instances.map((k) => k.ensure()));
    const rows = await h.c.db.selectFrom('signing_keys').select(['kid', 'retired_at']).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.retired_at).toBeNull();
  });

  it('instances that find the key too old rotate it once, and all sign with the new key', async () => {
    const instances = Array.from({ length: 6 }, () => createSigningKeys({ db: h.c.db, clock: h.clock }));
    const [first] = await h.c.db.selectFrom('signing_keys').select('kid').execute();
    h.clock.advance(31 * 86_400);
    const used = await Promise.all(instances.map((k) => k.current()));
    const rows = await h.c.db.selectFrom('signing_keys').select(['kid', 'retired_at']).execute();
    expect(rows).toHaveLength(2);
    const active = rows.filter((r) => r.retired_at === null);
    expect(active).toHaveLength(1);
    expect(active[0]!.kid).not.toBe(first!.kid);
    expect(new Set(used.map((u) => u.kid))).toEqual(new Set([active[0]!.kid]));
  });

  it('tokens issued concurrently all verify', async () => {
    const account = await h.createAccount();
    const tokens = await Promise.all(Array.from({ length: 8 }, () => h.tokenFor(account.id)));
    const answers = await Promise.all(tokens.map((t) => h.api('GET', '/api/balance', t)));
    expect(answers.map((a) => a.statusCode)).toEqual(tokens.map(() => 200));
  });
});
