import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

// Issue 31 item 5: jobs_waiting{kind} has a sample for every job kind from the start, 0 when empty,
// so an alert on one kind sees it before that kind ever ran.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('jobs_waiting from the start', () => {
  it('has a 0 sample for every job kind the instance runs before any job of it was ever due', async () => {
    const kinds = h.c.scheduler.kinds();
    expect(kinds.length).toBeGreaterThan(3);
    const text = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    const series = new Map(
      text
        .split('\n')
        .filter((l) => l.startsWith('jobs_waiting{'))
        .map((l) => [/kind="([^"]+)"/.exec(l)![1]!, Number(l.split(' ')[1])] as const),
    );
    for (const kind of kinds) expect(series.get(kind), kind).toBe(0);
  });
});
