import { describe, expect, it } from 'vitest';
import { createTokenCache } from '../../../src/network/provider/token-cache.ts';

describe('provider token cache', () => {
  function cache() {
    let t = 0;
    let issued = 0;
    let fail = false;
    let release: (() => void) | undefined;
    const c = createTokenCache({
      now: () => t,
      async fetch() {
        issued += 1;
        const n = issued;
        if (release === undefined) await new Promise<void>((r) => (release = r));
        release = undefined;
        if (fail) throw new Error('503 from the token route');
        return { accessToken: `token-${n}`, expiresInSeconds: 1800 };
      },
    });
    return {
      c,
      advance: (ms: number) => (t += ms),
      issued: () => issued,
      failNext: () => (fail = true),
      recover: () => (fail = false),
      release: () => release?.(),
    };
  }

  it('many callers at once share one renewal in flight', async () => {
    const k = cache();
    const all = Promise.all([k.c.get(), k.c.get(), k.c.get()]);
    await Promise.resolve();
    k.release();
    expect(await all).toEqual(['token-1', 'token-1', 'token-1']);
    expect(k.issued()).toBe(1);
  });

  it('keeps the token until 30 s before it expires, then renews it', async () => {
    const k = cache();
    const first = k.c.get();
    k.release();
    expect(await first).toBe('token-1');
    expect(k.c.snapshot().expiresAt!.getTime()).toBe(1_800_000);
    k.advance(1_769_999); // 30.001 s left
    expect(await k.c.get()).toBe('token-1');
    k.advance(1); // 30 s left: renewed
    const second = k.c.get();
    await Promise.resolve();
    k.release();
    expect(await second).toBe('token-2');
    expect(k.issued()).toBe(2);
  });

  it('a failed renewal is not cached: the next caller tries again; a refused token is dropped', async () => {
    const k = cache();
    k.failNext();
    const failed = k.c.get();
    k.release();
    await expect(failed).rejects.toThrow(/503/);
    expect(k.c.snapshot().lastError).toMatch(/503/);
    k.recover();
    const next = k.c.get();
    await Promise.resolve();
    k.release();
    expect(await next).toBe('token-2');
    k.c.invalidate('token-2');
    const renewed = k.c.get();
    await Promise.resolve();
    k.release();
    expect(await renewed).toBe('token-3');
    expect(k.c.snapshot().lastError).toBeNull();
  });
});
