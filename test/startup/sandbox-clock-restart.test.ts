import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';

const ADMIN_TOKEN = 'sandbox-clock-admin-0123456789';
const config = loadConfig({ MODE: 'sandbox', ADMIN_TOKEN, DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
let database: Database;
/** The same database for each "process", as a restart on one DATA_DIR or DATABASE_URL sees it. */
let kept: Database;

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  kept = { ...database, close: async () => {} };
});
afterAll(() => database.close());

async function boot() {
  const c = await createContainer(config, { database: kept, logger: pino({ level: 'silent' }) });
  const app = await buildApp(c);
  return { c, app, stop: async () => { await app.close(); await c.close(); } };
}

describe('sandbox clock across restarts', () => {
  it('a restart keeps the time an advance reached: the clock never goes back', async () => {
    const first = await boot();
    const res = await first.app.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { seconds: 86_400 },
    });
    expect(res.statusCode).toBe(200);
    const reached = new Date(res.json().now).getTime();
    await first.stop();

    const second = await boot();
    try {
      expect(second.c.clock.now().getTime()).toBeGreaterThanOrEqual(reached);
      // And it keeps running from there (a running clock, not a frozen one).
      expect(second.c.clock.now().getTime() - Date.now()).toBeGreaterThanOrEqual(86_400_000 - 60_000);
    } finally {
      await second.stop();
    }
  });
});
