import type { SystemContext } from '../../route-contexts.ts';

/** What the checks ask. */
type ReadinessContext = Pick<SystemContext, 'databaseProbe' | 'scheduler'>;

/** Each check answers within this bound ('no answer within ...' otherwise). */
export const READINESS_CHECK_TIMEOUT_MS = 2000;

/**
 * One part of readiness: 'ok', or why this instance should not get traffic now. `earlier` holds the
 * answers of the checks listed before it (a check that needs the database reads `earlier.database`).
 */
export interface ReadinessCheck {
  readonly name: string;
  run(c: ReadinessContext, earlier: Readonly<Record<string, string>>): Promise<string> | string;
}

const database: ReadinessCheck = {
  name: 'database',
  run: async (c) => (await c.databaseProbe.ping(), 'ok'),
};

const migrations: ReadinessCheck = {
  name: 'migrations',
  async run(c, earlier) {
    if (earlier.database !== 'ok') return 'unknown: the database does not answer';
    return (await c.databaseProbe.schemaMismatch()) ?? 'ok';
  },
};

const scheduler: ReadinessCheck = {
  name: 'scheduler',
  run: (c) => (c.scheduler.isRunning() ? 'ok' : 'not running'),
};

/**
 * What GET /ready asks, in order (the seam for more: a draining instance adds its check here).
 * GET /health asks none of them: liveness never depends on the database.
 */
export const READINESS_CHECKS: readonly ReadinessCheck[] = [database, migrations, scheduler];

/** A check's answer within READINESS_CHECK_TIMEOUT_MS: 'ok', or why not. */
async function bounded(run: () => Promise<string> | string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`), READINESS_CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([Promise.resolve().then(run).catch((error: Error) => `failed: ${error.message}`), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every check's answer, by name, and whether all said 'ok'. */
export async function readiness(c: ReadinessContext, checks: readonly ReadinessCheck[] = READINESS_CHECKS) {
  const answers: Record<string, string> = {};
  for (const check of checks) answers[check.name] = await bounded(() => check.run(c, answers));
  return { ready: Object.values(answers).every((v) => v === 'ok'), checks: answers };
}
