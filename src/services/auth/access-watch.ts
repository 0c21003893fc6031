import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import type { AccessWatch } from './bearer-authenticator.ts';

/**
 * Feeds the bearer guard's memory of active credentials and certificates with the database's change
 * notifications (migration 690): a dedicated listening connection on PostgreSQL, PGlite's listener
 * in process. A background worker: started with the others, stopped before the database closes.
 */
export function watchAccessChanges(database: Pick<Database, 'listen'>, watch: AccessWatch, logger: Logger) {
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  return {
    start() {
      unlisten ??= database
        .listen(['access_changed'], { notify: () => watch.accessChanged(), listening: (on) => watch.listening(on) })
        .catch((error) => {
          // Not fatal: the guard then asks the database on every call, as without the memory.
          logger.error({ err: error }, 'listening for credential and certificate changes failed; checking each request in the database');
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
