import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('a payout batch that fails is never re-run silently', () => {
  it('logs why the batch failed, then runs each payout alone (each answers for itself)', async () => {
    const a = await payer(h, 100);
    const hold = vi.spyOn(h.c.ledger, 'hold').mockImplementationOnce(async () => {
      throw new Error('batch hold exploded');
    });
    try {
      const res = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      hold.mockRestore();
    }
    const logged = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'payout batch failed; running its payouts one by one');
    expect(logged).toMatchObject({ level: 40, items: 1, err: { message: 'batch hold exploded' } });
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
  });
});
