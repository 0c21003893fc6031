import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { TestClockStatus } from '../../domain/closed-lists.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import type { DB } from '../../db/schema.ts';
import { testClocksRepo, type TestClockWithAccounts } from '../../db/repos/test-clocks.repo.ts';
import { transact } from '../../db/transact.ts';
import { outsideRequest } from '../../observability/trace-context.ts';
import { enterAccountClock, type AccountClockScope } from './account-time.ts';
import { createClockMembership } from './clock-membership.ts';

/** Who asks: the admin token (any clock), or an account's own token (only clocks it is on). */
export type TestClockActor = { kind: 'admin' } | { kind: 'account'; accountId: number };

export interface TestClockView {
  id: string;
  name: string | null;
  frozenTime: string;
  status: TestClockStatus;
  accountIds: number[];
}

/** Steps of one advance at most (each a due time of the clock's work); a safety bound. */
const MAX_STEPS = 10_000;
/** How long an advance holds its clock without taking a step (real time); then another may take it over. */
const ADVANCE_LEASE_S = 120;

const view = (c: TestClockWithAccounts): TestClockView => ({
  id: c.id,
  name: c.name,
  frozenTime: c.frozen_time.toISOString(),
  status: c.status,
  accountIds: c.accountIds,
});

/**
 * Per-account test clocks (issue 29 item 3, sandbox only; docs/decisions.md "Per-account test
 * clocks"). A clock stands still at its frozen time; every time rule of its accounts reads that time
 * (account-time.ts); advancing it runs its accounts' due work in due-time order, the clock stepped to
 * each due time, then the webhooks, then answers `ready`.
 */
export function createTestClocks(deps: {
  db: Kysely<DB>;
  /** The service clock (created/updated stamps of the clock rows). */
  clock: Clock;
  /** Off in production: no account is ever on a clock, and `enter` reads nothing. */
  enabled: boolean;
  scheduler: { runDue(): Promise<number> };
  webhookRelay: { runDue(): Promise<unknown> };
  logger: Logger;
}) {
  /** Advances running in this process (awaited by `settled`: tests, shutdown). */
  const running = new Set<Promise<void>>();
  /** Which accounts are on a clock, in memory: no statement per account request (clock-membership.ts). */
  const membership = createClockMembership({ db: deps.db });

  async function scopeOf(accountId: number): Promise<AccountClockScope | undefined> {
    if (!deps.enabled) return undefined;
    return membership.of(accountId);
  }

  /** An account's time: its test clock's when it is on one, else the service clock's. */
  async function nowFor(accountId: number): Promise<Date> {
    return (await scopeOf(accountId))?.time ?? deps.clock.now();
  }

  /** The served account's clock, for the rest of the request (a no-op in production). */
  async function enter(accountId: number): Promise<void> {
    if (!deps.enabled) return;
    const scope = await scopeOf(accountId);
    if (scope) enterAccountClock(scope);
  }

  /** The clock as the actor may see it; another's is "not found". */
  async function visible(actor: TestClockActor, id: string): Promise<TestClockWithAccounts> {
    const clock = await testClocksRepo.byId(deps.db, id);
    if (!clock || (actor.kind === 'account' && !clock.accountIds.includes(actor.accountId))) {
      throw new DomainError('NOT_FOUND', undefined, `Test clock ${id} not found`);
    }
    return clock;
  }

  async function create(actor: TestClockActor, input: { frozenTime: Date; accountIds: number[]; name?: string | undefined }): Promise<TestClockView> {
    const accountIds = [...new Set(input.accountIds)].sort((a, b) => a - b);
    if (accountIds.length !== input.accountIds.length) throw new ValidationError(['accountIds must not repeat an account']);
    if (actor.kind === 'account') {
      const foreign = accountIds.find((id) => id !== actor.accountId);
      if (foreign !== undefined) throw new DomainError('NOT_FOUND', undefined, `Account ${foreign} not found`);
    }
    const now = deps.clock.now();
    const id = newUuidV4();
    try {
      await transact(deps.db, async (trx) => {
        const found = await testClocksRepo.accountsOf(trx, accountIds);
        const missing = accountIds.find((a) => !found.some((f) => Number(f.id) === a));
        if (missing !== undefined) throw new DomainError('NOT_FOUND', undefined, `Account ${missing} not found`);
        const taken = found.find((f) => f.clock_id !== null);
        if (taken) throw onTwoClocks(Number(taken.id));
        await testClocksRepo.insert(trx, { id, name: input.name ?? null, frozen_time: input.frozenTime, status: 'ready', created_at: now, updated_at: now }, accountIds);
      });
    } catch (error) {
      // Two creations at once for one account: the primary key of test_clock_accounts decides.
      if ((error as { code?: string }).code === '23505') throw onTwoClocks(undefined);
      throw error;
    }
    membership.invalidate();
    return view((await testClocksRepo.byId(deps.db, id))!);
  }

  function onTwoClocks(accountId: number | undefined): DomainError {
    return new DomainError(
      'CONFLICT',
      accountId === undefined ? undefined : { accountId },
      accountId === undefined ? 'An account is already on a test clock (accountIds)' : `accountIds: account ${accountId} is already on a test clock`,
    );
  }

  /** The clock an account is on, if any. */
  async function ofAccount(accountId: number): Promise<TestClockView | undefined> {
    const scope = await scopeOf(accountId);
    const clock = scope && (await testClocksRepo.byId(deps.db, scope.clockId));
    return clock ? view(clock) : undefined;
  }

  async function get(actor: TestClockActor, id: string): Promise<TestClockView> {
    return view(await visible(actor, id));
  }

  async function page(actor: TestClockActor, asked: { page: number; pageSize: number }): Promise<{ rows: TestClockView[]; total: number }> {
    const { rows, total } = await testClocksRepo.page(deps.db, actor.kind === 'account' ? { accountId: actor.accountId } : {}, asked);
    return { rows: rows.map(view), total };
  }

  async function remove(actor: TestClockActor, id: string): Promise<void> {
    await visible(actor, id);
    await testClocksRepo.remove(deps.db, id);
    membership.invalidate();
  }

  /**
   * Starts moving the clock to `to` and answers at once (`advancing`); the work runs in this
   * process: the due work of the clock's accounts in due order, the clock stepped to each due time,
   * then the clock at `to`, then `ready`.
   */
  async function advance(actor: TestClockActor, id: string, to: Date): Promise<TestClockView> {
    const clock = await visible(actor, id);
    if (to.getTime() <= clock.frozen_time.getTime()) {
      throw new ValidationError([`to must be after the clock's frozenTime (${clock.frozen_time.toISOString()})`]);
    }
    const started = await testClocksRepo.startAdvance(deps.db, id, deps.clock.now(), ADVANCE_LEASE_S);
    if (!started) throw new DomainError('CONFLICT', { status: 'advancing' }, 'The test clock is advancing already; wait until its status is ready');
    // Outside the request: the caller's own clock scope and trace are not the advance's.
    const work = outsideRequest(() => run(id, started.frozen_time, to));
    running.add(work);
    void work.finally(() => running.delete(work));
    return { ...view(clock), status: 'advancing' };
  }

  async function run(id: string, from: Date, to: Date): Promise<void> {
    try {
      let at = from;
      // What was due already at the frozen time, then each later due time in order.
      await runDueNow();
      for (let step = 0; step < MAX_STEPS; step++) {
        const next = await testClocksRepo.nextDue(deps.db, id, at, to);
        if (next === undefined) break;
        at = next;
        await testClocksRepo.setTime(deps.db, id, at, deps.clock.now(), ADVANCE_LEASE_S);
        membership.invalidate();
        await runDueNow();
      }
      await testClocksRepo.setTime(deps.db, id, to, deps.clock.now(), ADVANCE_LEASE_S);
      membership.invalidate();
      await runDueNow();
    } catch (error) {
      deps.logger.error({ err: error, testClock: id }, 'advancing a test clock failed; it is left ready at the time it reached');
    } finally {
      await testClocksRepo.finishAdvance(deps.db, id, deps.clock.now()).catch((error: unknown) => deps.logger.error({ err: error, testClock: id }, 'a test clock could not be set ready'));
    }
  }

  async function runDueNow(): Promise<void> {
    await deps.scheduler.runDue();
    await deps.webhookRelay.runDue();
  }

  return {
    /** A clock changed (a NOTIFY from another process, or this one's own change): membership read again. */
    invalidate: membership.invalidate,
    scopeOf,
    nowFor,
    enter,
    create,
    ofAccount,
    get,
    page,
    remove,
    advance,
    /** Resolves once the advances running in this process are over. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

export type TestClocks = ReturnType<typeof createTestClocks>;
