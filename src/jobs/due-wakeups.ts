import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { Scheduler } from './scheduler.ts';

/** How often an idle scheduler or relay looks for work on its own, wake-ups aside (a safety net). */
export const IDLE_SAFETY_POLL_MS = 5_000;
/**
 * How often the scheduler and the relay look for due work while nothing is listening (the listening
 * connection is lost, or there is none: a transaction pooler without DATABASE_LISTEN_URL): jobs and
 * deliveries committed meanwhile then start within this, not at the next safety poll.
 */
export const UNHEARD_POLL_MS = 250;

/**
 * Wires the database's notifications of committed jobs and deliveries (migration 680) to the job
 * scheduler and the webhook relay, so an idle instance sends a few statements per safety poll
 * instead of polling several times a second, and a job enqueued by any instance runs when due.
 */
export function dueWakeups(database: Pick<Database, 'listen'>, targets: { scheduler: Pick<Scheduler, 'wakeAt' | 'lookSoon'>; relay: { wakeUp(): void; lookSoon(): void }; logger: Logger; /** Live event streams: a queued delivery means a new event. */ events?: { wakeUp(): void }; /** Sandbox test clocks: a clock changed, their membership is read again. */ testClocks?: { invalidate(): void } }) {
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  let polling: NodeJS.Timeout | undefined;
  let stopped = false;
  const lookNow = () => {
    targets.scheduler.wakeAt(new Date(0));
    targets.relay.wakeUp();
  };
  const poll = (on: boolean) => {
    if (on || stopped) {
      clearInterval(polling);
      polling = undefined;
    } else
      polling ??= setInterval(() => {
        targets.scheduler.lookSoon();
        targets.relay.lookSoon();
      }, UNHEARD_POLL_MS);
  };
  return {
    start() {
      stopped = false;
      unlisten ??= database
        .listen(['jobs_due', 'deliveries_due', ...(targets.testClocks ? ['test_clocks'] : [])], {
          notify(name, payload) {
            if (name === 'test_clocks') return targets.testClocks?.invalidate();
            if (name === 'deliveries_due') {
              targets.events?.wakeUp();
              return targets.relay.wakeUp();
            }
            const dueMs = Number(payload);
            targets.scheduler.wakeAt(new Date(Number.isFinite(dueMs) ? dueMs : 0));
          },
          // Back after a gap: notifications may have been missed meanwhile, so look now.
          // Not listening: poll meanwhile.
          listening(on) {
            poll(on);
            if (on) lookNow();
            if (on) targets.testClocks?.invalidate();
          },
        })
        .catch((error) => {
          // Not fatal: polling finds everything, only with a few more statements.
          targets.logger.error({ err: error }, 'listening for due jobs and deliveries failed; polling instead');
          poll(false);
          return undefined;
        });
    },
    async stop() {
      stopped = true;
      poll(false);
      const stop = await unlisten;
      unlisten = undefined;
      await stop?.();
    },
  };
}
