import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('token flow (smoke)', () => {
  it('issues a token through the real flow that the bearer guard accepts', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id);
    expect(token.split('.')).toHaveLength(3);
    const identity = await h.c.accountTokens.authenticate(`Bearer ${token}`);
    expect(identity).toMatchObject({ accountId: account.id, scopes: expect.arrayContaining(['pix:write']) });
    expect(await h.c.accountTokens.authenticate(`Bearer ${token}x`)).toBeUndefined();
  });
});
