import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { Scheduler } from './scheduler.ts';

/** How often an idle scheduler or relay looks for work on its own, wake-ups aside (a safety net). */
export const IDLE_SAFETY_POLL_MS = 5_000;

/**
 * Wires the database's notifications of committed jobs and deliveries (migration 680) to the job
 * scheduler and the webhook relay, so an idle instance sends a few statements per safety poll
 * instead of polling several times a second, and a job enqueued by any instance runs when due.
 */
export function dueWakeups(database: Pick<Database, 'listen'>, targets: { scheduler: Pick<Scheduler, 'wakeAt'>; relay: { wakeUp(): void }; logger: Logger; /** Live event streams: a queued delivery means a new event. */ events?: { wakeUp(): void } }) {
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  return {
    start() {
      unlisten ??= database
        .listen(['jobs_due', 'deliveries_due'], {
          notify(name, payload) {
            if (name === 'deliveries_due') {
              targets.events?.wakeUp();
              return targets.relay.wakeUp();
            }
            const dueMs = Number(payload);
            targets.scheduler.wakeAt(new Date(Number.isFinite(dueMs) ? dueMs : 0));
          },
          // Back after a gap: notifications may have been missed meanwhile, so look now.
          listening(on) {
            if (!on) return;
            targets.scheduler.wakeAt(new Date(0));
            targets.relay.wakeUp();
          },
        })
        .catch((error) => {
          // Not fatal: the safety poll still finds everything, only later.
          targets.logger.error({ err: error }, 'listening for due jobs and deliveries failed; relying on the safety poll');
          return undefined;
        });
    },
    async stop() {
      const stop = await unlisten;
      unlisten = undefined;
      await stop?.();
    },
  };
}
