import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { checkAcknowledged, checkLedger, kill9, load, setUp, startService, stop, waitHealthy, type Acknowledged } from './kill9-kit.ts';

const PORT = 4172;
// One crash: each PGlite restart compiles its WebAssembly again (the PostgreSQL variant does two).
const ROUNDS = 1;
const base = `http://127.0.0.1:${PORT}`;
const dir = mkdtempSync(path.join(tmpdir(), 'pix-kill9-'));
let current: ReturnType<typeof startService> | undefined;
afterAll(async () => {
  if (current) await kill9(current.child);
  rmSync(dir, { recursive: true, force: true });
});

describe('kill -9 under mixed load (PGlite)', () => {
  it('a crash under load, a restart at once: ledger exact, nothing acknowledged lost or doubled', async () => {
    const env = { DATA_DIR: dir };
    current = startService(env, PORT);
    await waitHealthy(base, current.child, current.output);
    const clients = await setUp(base, 4);
    const acknowledged: Acknowledged = { cashOuts: [], transfers: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const running = load(base, clients, acknowledged);
      await new Promise((r) => setTimeout(r, 1_500));
      await kill9(current.child);
      await running.stop();
      // The folder lock's owner is dead: the restart must not wait for it to go stale.
      current = startService(env, PORT);
      await waitHealthy(base, current.child, current.output);
    }
    await checkAcknowledged(base, acknowledged);
    await stop(current.child);
    current = undefined;
    const db = await openDatabase({ dataDir: dir });
    try {
      await checkLedger(db.db, acknowledged);
    } finally {
      await db.close();
    }
  }, 180_000);
});
