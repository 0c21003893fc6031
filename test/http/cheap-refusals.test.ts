import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, ValidationError } from '../../src/domain/errors/domain-error.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function refusals(route: string, status: string): Promise<number> {
  const metric = await h.c.metrics.httpRefusals.get();
  return metric.values.find((v) => v.labels.route === route && v.labels.status === status)?.value ?? 0;
}

// Issue 12 kept refusals cheap: one access line each (issue 25 moved it to info: on-call must find a
// customer's failing calls), no other line, and a count in http_refusals_total.
const infoLines = (lines: string[]) => lines.map((line) => JSON.parse(line) as { level: number; msg: string; status?: number; code?: string }).filter((l) => l.level >= 30);

describe('refused requests are cheap: counted, one access line at info and no other', () => {
  it('a 401 writes its access line only and is counted in http_refusals_total', async () => {
    const before = await refusals('/api/balance', '401');
    const linesBefore = h.logLines.length;
    const res = await h.app.inject({ method: 'GET', url: '/api/balance', headers: { authorization: 'Bearer not-a-token' } });
    expect(res.statusCode).toBe(401);
    // pino levels: 30 info, 40 warn, 50 error.
    expect(infoLines(h.logLines.slice(linesBefore))).toEqual([expect.objectContaining({ level: 30, msg: 'request', status: 401, code: 'HTTP_ERROR', reason: 'UNAUTHORIZED' })]);
    expect(await refusals('/api/balance', '401')).toBe(before + 1);
  });

  it('a 403 (token without the scope) is counted too, and the metric is exposed', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id, ['pix:read']);
    const before = await refusals('/api/balance', '403');
    const linesBefore = h.logLines.length;
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(403);
    expect(infoLines(h.logLines.slice(linesBefore))).toEqual([expect.objectContaining({ level: 30, msg: 'request', status: 403, code: 'HTTP_ERROR', reason: 'FORBIDDEN' })]);
    expect(await refusals('/api/balance', '403')).toBe(before + 1);
    expect(await h.c.metrics.registry.metrics()).toMatch(/http_refusals_total\{method="GET",route="\/api\/balance",status="403"\} \d+/);
  });

  it('expected outcomes carry no captured stack frames; other errors still do', () => {
    expect(new DomainError('UNAUTHORIZED').stack).not.toMatch(/\n\s+at /);
    expect(new ValidationError(['amount must be a number']).stack).not.toMatch(/\n\s+at /);
    expect(new Error('a bug').stack).toMatch(/\n\s+at /);
  });
});
