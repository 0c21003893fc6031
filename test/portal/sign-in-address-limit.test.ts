import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureKeys } from '../../src/services/auth/failure-limits.ts';
import { startHarness, type Harness } from '../harness.ts';
import { portalClient, signedInMember } from './portal-client.ts';

// Issue 30 item 6 (decisions 6: at most 10 failures per e-mail AND per address in 15 minutes).
// Password spraying: one address trying many e-mails. Every password check is a scrypt hash, so the
// refusal must come before it. The sign-in hands its password check (the hash) to the failure
// limits' `judge`, which runs it only when no counter refuses: the check is wrapped to count its runs.
let h: Harness;
const hashChecks = vi.fn();
beforeAll(async () => {
  h = await startHarness();
  const failures = h.c.portalFailures;
  const judge = failures.judge.bind(failures);
  vi.spyOn(failures, 'judge').mockImplementation((plan, check, seen) =>
    judge(plan, () => {
      hashChecks();
      return check();
    }, seen),
  );
});
afterAll(() => h.close());

const failuresOf = async (key: { key: string }) =>
  (await h.c.db.selectFrom('auth_failures').select('failed_at').where('key', '=', key.key).executeTakeFirst())?.failed_at ?? [];

describe('portal sign-in: a failure budget per address', () => {
  it('11 wrong sign-ins over 11 e-mails from one address: the 11th is 429 with Retry-After before any password is hashed; the rightful user elsewhere signs in', async () => {
    const account = await h.createAccount();
    await signedInMember(h, account.id, 'sprayed@example.com');
    const sprayer = portalClient(h, { address: '10.30.0.1' });
    await sprayer.get('/portal/sign-in');
    for (let i = 0; i < 10; i++) {
      const email = i === 0 ? 'sprayed@example.com' : `nobody${i}@example.com`;
      expect((await sprayer.post('/portal/sign-in', { email, password: `spray guess ${i}` })).statusCode, `attempt ${i + 1}`).toBe(401);
    }
    expect(await failuresOf(failureKeys.signInAddress('10.30.0.1'))).toHaveLength(10);

    hashChecks.mockClear();
    const eleventh = await sprayer.post('/portal/sign-in', { email: 'nobody10@example.com', password: 'spray guess 10' });
    expect(eleventh.statusCode).toBe(429);
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(eleventh.body).toContain('Too many failed attempts');
    // Refused unchecked: no password hashed, nothing more counted.
    expect(hashChecks).not.toHaveBeenCalled();
    expect(await failuresOf(failureKeys.signInAddress('10.30.0.1'))).toHaveLength(10);
    expect(await failuresOf(failureKeys.signIn('nobody10@example.com', '10.30.0.1'))).toEqual([]);
    // The address's budget is spent whatever it sends, the right password of a user included.
    expect((await sprayer.post('/portal/sign-in', { email: 'sprayed@example.com', password: 'a long enough password' })).statusCode).toBe(429);
    expect(hashChecks).not.toHaveBeenCalled();

    // The rightful user at another address is not refused.
    const owner = portalClient(h, { address: '10.30.9.9' });
    await owner.get('/portal/sign-in');
    const signedIn = await owner.post('/portal/sign-in', { email: 'sprayed@example.com', password: 'a long enough password' });
    expect(signedIn.statusCode).toBe(303);
    expect(hashChecks).toHaveBeenCalledTimes(1);
    expect((await owner.get('/portal')).statusCode).toBe(200);
  });

  it('a concurrent spray of 25 e-mails from one address gets at most 10 passwords hashed', async () => {
    const sprayer = portalClient(h, { address: '10.31.0.1' });
    await sprayer.get('/portal/sign-in');
    hashChecks.mockClear();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => sprayer.post('/portal/sign-in', { email: `burst${i}@example.com`, password: 'spray guess!' })));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(15);
    expect(hashChecks).toHaveBeenCalledTimes(10);
  });
});
