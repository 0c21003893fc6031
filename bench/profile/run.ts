/**
 * A profile you can rerun (`npm run bench:profile`, issue 23 item 5): the service as users start it
 * (bench/lib/service-process.ts) with node's `--cpu-prof`, under a named cash-out load, on the
 * benchmark's own PostgreSQL (pg_stat_statements preloaded). Prints, for the load's period only
 * (from its start to every cash-out settled + event): the service processes' CPU samples by package
 * and the top functions (self time), their idle share, and PostgreSQL's CPU and its split by
 * statement, per 2xx; the load average before and after. The .cpuprofile files stay in
 * BENCH_PROFILE_DIR (default: a new temp folder, printed) to open in Chrome DevTools.
 *
 * Env: BENCH_PROFILE_LOAD (p99: 64 accounts, 16 clients | accounts: 64 accounts, 64 clients | hot:
 * one account, 64 clients | token: POST /api/auth/token, BENCH_IDENTITIES (32) identities,
 * BENCH_CLIENTS (16) clients; the load's own period), BENCH_PROFILE_SIDE (service | workers=N), BENCH_SECONDS (10),
 * BENCH_WARMUP_SECONDS (2), BENCH_SETTLEMENT_DELAY_MS (200), BENCH_TOP (25).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../lib/child.ts';
import { printProfile, summariseProfiles } from '../lib/cpu-profile.ts';
import { num } from '../lib/env.ts';
import { fmt, formatLoad, loadAverage } from '../lib/stats.ts';

process.env.BENCH_WORK_LOAD = process.env.BENCH_PROFILE_LOAD ?? 'p99';
const side = process.env.BENCH_PROFILE_SIDE ?? 'service';
if (side !== 'service' && !/^workers=\d+$/.test(side)) throw new Error(`BENCH_PROFILE_SIDE=${side}: service or workers=N`);
const TOP = num('BENCH_TOP', 25);
const dir = process.env.BENCH_PROFILE_DIR ?? mkdtempSync(path.join(tmpdir(), 'pix-bench-profile-'));
mkdirSync(dir, { recursive: true });

if (process.env.BENCH_WORK_LOAD === 'token') {
  const { profileToken } = await import('./token.ts');
  await profileToken(dir, side, TOP);
  process.exit(0);
}
const { measureSide, perCashOut, printBreakdown } = await import('../work/run.ts');
const { benchPostgres } = await import('../lib/postgres.ts');

const pgs = await benchPostgres();
console.log(`CPU profile of the service (${side}, started as users start it, with --cpu-prof) under load "${process.env.BENCH_WORK_LOAD}"; load average ${formatLoad(loadAverage())} at start`);
console.log(`PostgreSQL: ${pgs.describe}`);
const r = await measureSide(pgs, side, dir);
const profile = summariseProfiles(dir, ROOT, r.window[0], r.window[1]);
const per = perCashOut(r);
const n = Math.max(1, r.oks);

console.log(`\nload period (start to settled + event): ${((r.window[1] - r.window[0]) / 1e6).toFixed(1)} s, ${r.oks} 2xx (${fmt(r.okPerSecond)}/s measured); load ${formatLoad(r.loadBefore)} -> ${formatLoad(r.loadAfter)}`);
console.log(`CPU per 2xx: the service's processes ${fmt(per.get("the side's own CPU, ms")!)} ms (/proc), PostgreSQL ${fmt(per.get('PostgreSQL CPU, ms')!)} ms (/proc, all its processes)`);
printProfile(profile, n, TOP);
console.log('\nPostgreSQL split over the same period:');
printBreakdown(r, TOP);
console.log(`\nprofiles: ${dir} (open a .cpuprofile in Chrome DevTools > Performance)`);
console.log(`load average ${formatLoad(loadAverage())} at the end`);
if (r.broken.length > 0) {
  console.log(`INVARIANTS BROKEN: ${r.broken.join('; ')}`);
  process.exit(1);
}
process.exit(0);
