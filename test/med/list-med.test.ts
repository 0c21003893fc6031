import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix } from '../refunds/refund-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const list = (token: string, query = '') => h.api('GET', `/api/med${query}`, token);

describe('GET /api/med', () => {
  it('lists the account MEDs newest first, with filters and pagination', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const other = await accountWithReceivedPix(h, 100);
    await h.api('POST', '/sandbox/med', other.token, { endToEndId: other.pix.endToEndId });
    const first = (await h.api('POST', '/sandbox/med', token, { endToEndId: pix.endToEndId, amount: 1 })).json();
    await h.advance(60);
    const second = (await h.api('POST', '/sandbox/med', token, { endToEndId: pix.endToEndId, amount: 2 })).json();
    await h.api('POST', `/sandbox/med/${second.id}/transition`, token, { to: 'RECEIVED' });
    // A MED the provider reported about a PIX this service does not know: kept, not reconciled.
    await h.c.meds.sink({ requireReconciled: false }).onInfractionReported({
      accountId: account.id,
      endToEndId: 'E12345678202611201500unknown0001'.slice(0, 32),
      cause: 'SCAM',
      description: null,
      amount: 500 as never,
    });
    const fresh = await h.tokenFor(account.id);

    const all = await list(fresh);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.metadata).toEqual({ total: 3, page: 1, pageSize: 20, totalPages: 1 });
    expect(body.data.map((m: any) => m.isReconciled)).toEqual([false, true, true]);
    expect(body.data[0]).toMatchObject({ transaction: null, originalTransactionId: null });
    expect(body.data[1]).toMatchObject({ id: second.id, status: 'RECEIVED', originalTransactionId: pix.id });

    expect((await list(fresh, '?status=OPEN')).json().data.map((m: any) => m.id)).toEqual([expect.any(Number), first.id]);
    expect((await list(fresh, '?status=RECEIVED')).json().data.map((m: any) => m.id)).toEqual([second.id]);
    expect((await list(fresh, '?isReconciled=false')).json().metadata.total).toBe(1);
    expect((await list(fresh, '?isReconciled=true')).json().metadata.total).toBe(2);
    const start = encodeURIComponent(second.createdAt);
    expect((await list(fresh, `?startDate=${start}&isReconciled=true`)).json().data.map((m: any) => m.id)).toEqual([second.id]);
    expect((await list(fresh, `?endDate=${encodeURIComponent(first.createdAt)}`)).json().data.map((m: any) => m.id)).toEqual([first.id]);
    const page2 = (await list(fresh, '?page=2&pageSize=2')).json();
    expect(page2.metadata).toEqual({ total: 3, page: 2, pageSize: 2, totalPages: 2 });
    expect(page2.data.map((m: any) => m.id)).toEqual([first.id]);
  });

  it('answers 400 in the /api envelope for every bound (issue 17 item 2), dates bounded (issue 10 item 9)', async () => {
    const { token } = await accountWithReceivedPix(h, 1);
    const cases: Array<[string, string]> = [
      ['?status=DONE', 'status must be one of: OPEN, RECEIVED, CANCELLED, ANALYZED'],
      ['?isReconciled=maybe', 'isReconciled must be a boolean'],
      ['?startDate=2026-13-01', 'startDate must be an ISO 8601 date-time with a time zone, from 1970-01-01 to 2999-12-31'],
      ['?endDate=yesterday', 'endDate must be an ISO 8601 date-time with a time zone, from 1970-01-01 to 2999-12-31'],
      ['?endDate=9999-12-31T23:59:59-03:00', 'endDate must be an ISO 8601 date-time with a time zone, from 1970-01-01 to 2999-12-31'],
      ['?startDate=0000-01-01T00:00:00Z', 'startDate must be an ISO 8601 date-time with a time zone, from 1970-01-01 to 2999-12-31'],
      ['?endDate=2026-02-30T00:00:00Z', 'endDate must be an ISO 8601 date-time with a time zone, from 1970-01-01 to 2999-12-31'],
      ['?page=0', 'page must be greater than or equal to 1'],
      ['?page=1.5', 'page must be an integer'],
      ['?pageSize=0', 'pageSize must be greater than or equal to 1'],
      ['?pageSize=101', 'pageSize must be less than or equal to 100'],
      ['?startDate=2026-11-02T00:00:00Z&endDate=2026-11-01T00:00:00Z', 'startDate must not be after endDate'],
    ];
    for (const [query, message] of cases) {
      const res = await list(token, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, path: '/api/med', method: 'GET', code: 'HTTP_ERROR', message: [message], error: 'Bad Request' });
      expect(res.json()).toEqual(expect.objectContaining({ timestamp: expect.any(String), userMessage: expect.any(String), errorId: res.headers['x-request-id'] }));
    }
    expect((await list(token, '?pageSize=100&page=1')).statusCode).toBe(200);
  });

  it('keeps the /api envelope for 401 and needs pix:read', async () => {
    const { account } = await accountWithReceivedPix(h, 1);
    const res = await h.app.inject({ method: 'GET', url: '/api/med' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ statusCode: 401, code: 'HTTP_ERROR', errorId: expect.any(String) });
    const writeOnly = await h.tokenFor(account.id, ['pix:write']);
    expect((await list(writeOnly)).statusCode).toBe(403);
  });

  it('answers 429 past 60 requests a minute per account, with Retry-After and RateLimit headers', async () => {
    const { account } = await accountWithReceivedPix(h, 1);
    const other = await accountWithReceivedPix(h, 1);
    // Start at the beginning of a minute window so the whole burst falls in one window.
    const now = h.clock.now().getTime();
    await h.advance(60 - ((now / 1000) % 60));
    const fresh = await h.tokenFor(account.id);
    for (let i = 1; i <= 60; i++) {
      const res = await list(fresh, i % 2 ? '' : '?status=NOPE');
      expect(res.headers['ratelimit-remaining'], String(i)).toBe(String(60 - i));
    }
    const limited = await list(fresh);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['ratelimit-limit']).toBe('60');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.json()).toMatchObject({ statusCode: 429, code: 'HTTP_ERROR' });
    // Another account has its own counter.
    expect((await list(await h.tokenFor(other.account.id))).statusCode).toBe(200);
    await h.advance(30);
    expect((await list(fresh)).headers['retry-after']).toBe('30');
    await h.advance(30);
    expect((await list(fresh)).statusCode).toBe(200);
  });
});
