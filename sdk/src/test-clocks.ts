import type { Client } from 'openapi-fetch';
import type { operations, paths } from './openapi.ts';
import type { AnswerOf, BodyOf, QueryOf, RequestOptions } from './operation-types.ts';
import { pagedList, type PagedList } from './paging.ts';
import { unwrap } from './unwrap.ts';

const init = (options: RequestOptions) => (options.signal ? { signal: options.signal } : {});
type Paged<Op extends keyof operations> = AnswerOf<Op> extends { data: Array<infer T>; metadata: { totalPages: number } } ? PagedList<T, AnswerOf<Op>> : never;

/** A per-account test clock as the service answers it. */
export type TestClock = AnswerOf<'getTestClock'>;

/**
 * Per-account test clocks (sandbox mode only): every time rule of the accounts on a clock follows it
 * (charge expiry, refund window, limits, splits, webhook retries, timestamps). With an account's
 * client, only that account's own clocks; with the admin client, any. None is retried after its
 * first attempt except `get`, `list` and `delete`.
 */
export function testClockResources(http: Client<paths>) {
  return {
    /** POST /sandbox/test-clocks: a clock frozen at `frozenTime` for these accounts (each on one clock at most). */
    create: (body: BodyOf<'createTestClock'>, options: RequestOptions = {}): Promise<TestClock> => unwrap(http.POST('/sandbox/test-clocks', { body, ...init(options) })),
    /** GET /sandbox/test-clocks/{id}. */
    get: (id: string, options: RequestOptions = {}): Promise<TestClock> => unwrap(http.GET('/sandbox/test-clocks/{id}', { params: { path: { id } }, ...init(options) })),
    /** GET /sandbox/test-clocks: await for the first page, or iterate over every clock. */
    list: (query: Omit<QueryOf<'listTestClocks'>, 'page'> = {}, options: RequestOptions = {}): Paged<'listTestClocks'> =>
      pagedList((page) => unwrap(http.GET('/sandbox/test-clocks', { params: { query: { ...query, page } }, ...init(options) }))) as Paged<'listTestClocks'>,
    /**
     * POST /sandbox/test-clocks/{id}/advance: answers at once with `status: "advancing"`; what falls due
     * for the clock's accounts then runs in order. `waitUntilReady` polls until the clock is `ready`.
     */
    advance: (id: string, body: BodyOf<'advanceTestClock'>, options: RequestOptions = {}): Promise<TestClock> =>
      unwrap(http.POST('/sandbox/test-clocks/{id}/advance', { params: { path: { id } }, body, ...init(options) })),
    /** Reads the clock every `intervalMs` (default 200) until its status is `ready`; answers it then. */
    async waitUntilReady(id: string, options: RequestOptions & { intervalMs?: number; timeoutMs?: number } = {}): Promise<TestClock> {
      const deadline = Date.now() + (options.timeoutMs ?? 120_000);
      for (;;) {
        const clock = await unwrap(http.GET('/sandbox/test-clocks/{id}', { params: { path: { id } }, ...init(options) }));
        if (clock.status === 'ready') return clock;
        if (Date.now() >= deadline) throw new Error(`test clock ${id} still advancing after ${options.timeoutMs ?? 120_000} ms`);
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
      }
    },
    /** DELETE /sandbox/test-clocks/{id}: its accounts return to the service clock. */
    delete: (id: string, options: RequestOptions = {}): Promise<void> =>
      unwrap(http.DELETE('/sandbox/test-clocks/{id}', { params: { path: { id } }, ...init(options) })).then(() => undefined),
  };
}

export type TestClockResources = ReturnType<typeof testClockResources>;
