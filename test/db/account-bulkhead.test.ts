import { describe, expect, it } from 'vitest';
import { createAccountBulkhead, type AccountTurn } from '../../src/db/account-bulkhead.ts';
import { isDatabaseUnavailable } from '../../src/db/db-faults.ts';

/** A command that runs until `finish` is called (or fails with `fail`), recording its turn. */
function gate() {
  let finish!: (v: string) => void;
  let fail!: (e: unknown) => void;
  const turns: AccountTurn[] = [];
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { command: (turn: AccountTurn) => (turns.push(turn), done), finish, fail, turns };
}

const lockTimeout = Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
const settled = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

describe('the per-account bulkhead', () => {
  it('runs at most perAccount commands of one account at once; the next start in order as those end; other accounts are not held', async () => {
    const bulkhead = createAccountBulkhead({ perAccount: 2, lockTimeoutMs: 5_000 });
    const gates = Array.from({ length: 4 }, gate);
    const runs = gates.map((g) => bulkhead.run(1, g.command));
    await Promise.resolve();
    expect(gates.map((g) => g.turns.length)).toEqual([1, 1, 0, 0]);
    // Another account runs at once.
    expect(await bulkhead.run(2, async () => 'other')).toBe('other');
    gates[0]!.finish('first');
    expect(await runs[0]).toBe('first');
    await new Promise((resolve) => setImmediate(resolve));
    expect(gates.map((g) => g.turns.length)).toEqual([1, 1, 1, 0]);
    gates[1]!.finish('second');
    gates[2]!.finish('third');
    await Promise.all([runs[1], runs[2]]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gates[3]!.turns).toHaveLength(1);
    gates[3]!.finish('fourth');
    expect(await runs[3]).toBe('fourth');
    expect(bulkhead.stats()).toMatchObject({ queued: 2, refused: 0, accountsActive: 0 });
  });

  it('a queued command waits for its turn and its locks within one lock timeout: it starts with what is left of it, or answers 503', async () => {
    let clock = 0;
    const bulkhead = createAccountBulkhead({ perAccount: 1, lockTimeoutMs: 3_000, now: () => clock });
    const first = gate();
    const second = gate();
    const running = bulkhead.run(7, first.command);
    const queued = bulkhead.run(7, second.command);
    expect(first.turns).toEqual([{ lockTimeoutMs: undefined }]);
    clock = 1_200; // the first ran 1.2 s
    first.finish('done');
    await running;
    await new Promise((resolve) => setImmediate(resolve));
    expect(second.turns).toEqual([{ lockTimeoutMs: 1_800 }]);
    second.finish('done');
    await queued;

    // Past the whole lock timeout in the queue: 503 without running.
    const real = createAccountBulkhead({ perAccount: 1, lockTimeoutMs: 150 });
    const holder = gate();
    const held = real.run(9, holder.command);
    const started = performance.now();
    const late = await settled(real.run(9, async () => 'never'));
    expect(late.ok).toBe(false);
    expect(isDatabaseUnavailable((late as { error: unknown }).error)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    holder.finish('done');
    await held;
    expect(real.stats()).toMatchObject({ refused: 1, accountsActive: 0 });
  });

  it('when a running command meets the lock timeout, the ones queued behind it answer 503 at once', async () => {
    const bulkhead = createAccountBulkhead({ perAccount: 1, lockTimeoutMs: 60_000 });
    const running = gate();
    const first = settled(bulkhead.run(3, running.command));
    const queued = [settled(bulkhead.run(3, async () => 'a')), settled(bulkhead.run(3, async () => 'b'))];
    const started = performance.now();
    running.fail(lockTimeout);
    const answers = await Promise.all(queued);
    expect(performance.now() - started).toBeLessThan(1_000);
    for (const a of answers) {
      expect(a.ok).toBe(false);
      expect(isDatabaseUnavailable((a as { error: unknown }).error)).toBe(true);
      expect(String((a as { error: Error }).error.message)).toMatch(/account 3: its row is locked/);
    }
    expect(await first).toMatchObject({ ok: false, error: { code: '55P03' } });
    // The account is served again afterwards.
    expect(await bulkhead.run(3, async () => 'again')).toBe('again');
  });
});
