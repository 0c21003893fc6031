import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureDemoAccount } from '../../src/services/sandbox/demo-account.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
const dirs: string[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('sandbox instances starting together on one database share one demo account, funded once (none crashes)', async () => {
  const instances = Array.from({ length: 4 }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-demo-race-'));
    dirs.push(dir);
    return { ...h.c, config: { ...h.c.config, dataDir: dir } } as typeof h.c;
  });
  const demos = await Promise.all(instances.map((c) => ensureDemoAccount(c)));
  expect(new Set(demos.map((d) => d.accountId)).size).toBe(1);
  const rows = await h.c.db.selectFrom('accounts').select(['id', 'available']).where('is_demo', '=', true).execute();
  expect(rows).toEqual([{ id: demos[0]!.accountId, available: 1_000_000 }]);
});
