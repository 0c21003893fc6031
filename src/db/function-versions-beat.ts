import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { touchFunctionVersions } from './function-sources.ts';

/** How often a running instance marks its build's function versions as in use (far below the retention). */
export const FUNCTION_VERSIONS_BEAT_MS = 60 * 60 * 1000;

/**
 * Keeps this build's versioned server-side functions marked as called by a running build
 * (schema_functions.last_seen_at), so that a later start of another build, which drops versions
 * unseen for FUNCTION_VERSION_RETENTION_HOURS, never drops the ones this instance calls, however long
 * it runs without a restart. A failed beat is logged and tried at the next one.
 */
export function functionVersionsBeat(db: Kysely<any>, logger: Logger) {
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      timer = setInterval(() => {
        touchFunctionVersions(db).catch((error: unknown) => logger.warn({ err: error }, 'could not mark the function versions as in use'));
      }, FUNCTION_VERSIONS_BEAT_MS).unref();
    },
    async stop() {
      clearInterval(timer);
    },
  };
}
