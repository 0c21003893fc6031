import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/network/provider/backoff.ts';
import { CircuitOpenError, createCircuitBreaker } from '../../../src/network/provider/circuit-breaker.ts';

describe('circuit breaker', () => {
  function breaker() {
    let t = 1_000_000;
    const b = createCircuitBreaker({ threshold: 3, cooldownMs: 10_000, now: () => t });
    return { b, advance: (ms: number) => (t += ms) };
  }

  it('opens after `threshold` failures in a row, fails fast while open, and says when it will try again', () => {
    const { b } = breaker();
    b.enter();
    b.failure('timeout');
    b.enter();
    b.failure('timeout');
    expect(b.state()).toBe('closed');
    b.enter();
    b.failure('HTTP 503');
    expect(b.state()).toBe('open');
    expect(() => b.enter()).toThrow(CircuitOpenError);
    const snap = b.snapshot();
    expect(snap).toMatchObject({ state: 'open', consecutiveFailures: 3, lastFailure: 'HTTP 503' });
    expect(snap.retryAt!.getTime() - snap.openedAt!.getTime()).toBe(10_000);
  });

  it('a success in between resets the count', () => {
    const { b } = breaker();
    b.failure('x');
    b.failure('x');
    b.success();
    b.failure('x');
    b.failure('x');
    expect(b.state()).toBe('closed');
  });

  it('half-open after the cooldown lets exactly one trial call through: its success closes, its failure reopens', () => {
    const { b, advance } = breaker();
    for (let i = 0; i < 3; i++) b.failure('down');
    advance(10_000);
    expect(b.state()).toBe('half_open');
    b.enter(); // the trial
    expect(() => b.enter()).toThrow(CircuitOpenError); // others wait for it
    b.failure('still down');
    expect(b.state()).toBe('open');
    advance(10_000);
    b.enter();
    b.success();
    expect(b.state()).toBe('closed');
    b.enter();
    b.enter();
  });
});

describe('backoff with jitter', () => {
  it('grows by doubling up to the cap, and the jitter stays within [0, step)', () => {
    const policy = { baseMs: 250, maxMs: 2_000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 0.999999))).toEqual([249, 499, 999, 1999, 1999]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(2, policy);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(500);
    }
  });
});
