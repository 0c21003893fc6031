import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { signedInMember } from './portal-client.ts';
import { providerEnv } from '../provider-env.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { MODE: 'production', ...providerEnv() } });
});
afterAll(() => h?.close());

describe('the portal outside the sandbox', () => {
  it('has no sandbox tools: no Sandbox link, its pages and actions answer 404 and move nothing', async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'prod@example.com');
    const home = await member.get('/portal');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('>Home</a>');
    expect(home.body).not.toContain('href="/portal/sandbox"');
    expect(home.body).not.toContain('badge-sandbox');
    expect((await member.get('/portal/sandbox')).statusCode).toBe(404);
    const before = h.c.clock.now().getTime();
    for (const action of ['deposit', 'pay', 'med', 'clock']) {
      expect((await member.post(`/portal/sandbox/${action}`, { amount: '100,00', minutes: '60' })).statusCode, action).toBe(404);
    }
    expect((await h.balance(account.id)).available).toBe(0);
    expect(h.c.clock.now().getTime()).toBe(before);
  });
});
