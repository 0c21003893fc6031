import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import { outsideRequest } from '../observability/trace-context.ts';

/**
 * The background timer of a scheduler: polls every `pollMs`, or (with `safetyPollMs`) sleeps until
 * the next job is due or a wake-up comes, and backs off while polls fail.
 */
export function createJobPoller(deps: {
  clock: Clock;
  logger: Logger;
  pollMs: number;
  safetyPollMs?: number;
  /** Without wake-ups: run everything due. */
  runDue: () => Promise<unknown>;
  /** With wake-ups: one look, work if due; answers the next due time. */
  pass: () => Promise<Date | undefined>;
}) {
  const { pollMs, safetyPollMs } = deps;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let failedPolls = 0;
  let ticking = false;
  /** Real-time ms at which the armed timer fires. */
  let armedFor = Infinity;
  /** The earliest wake-up asked for while a tick was running (real-time ms). */
  let wokenFor = Infinity;

  function arm(delayMs: number) {
    if (timer) clearTimeout(timer);
    armedFor = Date.now() + delayMs;
    // A wake-up may come while a request is served: its trace must not become the background's.
    timer = outsideRequest(() => setTimeout(tick, delayMs));
  }

  /** The delay before the next tick, after one that succeeded. */
  function nextDelay(next: Date | undefined): number {
    if (safetyPollMs === undefined) return pollMs;
    const now = deps.clock.now().getTime();
    // Still due after the drain: other instances hold those jobs; look again soon.
    let delay = next === undefined ? safetyPollMs : next.getTime() <= now ? pollMs : Math.min(safetyPollMs, next.getTime() - now);
    if (wokenFor !== Infinity) delay = Math.min(delay, Math.max(0, wokenFor - Date.now()));
    return delay;
  }

  function tick() {
    if (stopped) return;
    ticking = true;
    armedFor = Infinity;
    let next: Date | undefined;
    const work = safetyPollMs === undefined ? deps.runDue().then(() => undefined) : deps.pass();
    work
      .then((due) => {
        failedPolls = 0;
        next = due;
      })
      .catch((error) => {
        failedPolls += 1;
        deps.logger.error({ err: error, failedPolls }, 'job poll failed');
      })
      .finally(() => {
        ticking = false;
        if (stopped) return;
        // While the database is away, poll less and less often (at most every 5 s), not 5 times a second.
        if (failedPolls > 0) return arm(Math.min(5_000, pollMs * 2 ** failedPolls));
        const delay = nextDelay(next);
        wokenFor = Infinity;
        arm(delay);
      });
  }

  /**
   * A job due at `dueAt` (service clock) was committed, here or by another instance: run it then
   * instead of at the next safety poll.
   */
  function wakeAt(dueAt: Date) {
    if (stopped) return;
    const at = Date.now() + Math.max(0, dueAt.getTime() - deps.clock.now().getTime());
    if (ticking) wokenFor = Math.min(wokenFor, at);
    else if (at < armedFor) arm(Math.max(0, at - Date.now()));
  }

  return {
    wakeAt,
    /** Polling while nothing listens (due-wakeups.ts): look now, unless polls are failing (their backoff stands). */
    lookSoon() {
      if (failedPolls === 0) wakeAt(new Date(0));
    },
    isRunning: () => !stopped,
    start() {
      if (!stopped) return;
      stopped = false;
      arm(0);
    },
    /** No tick after this one; a tick running now finishes. */
    halt() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
