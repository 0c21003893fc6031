/**
 * `BENCH_PROFILE_LOAD=token npm run bench:profile`: the service as users start it, with node's
 * `--cpu-prof`, under the token load of `npm run bench:token` (POST /api/auth/token, BENCH_IDENTITIES
 * identities, BENCH_CLIENTS clients); the samples of the load's period only, by package and function,
 * and PostgreSQL's statements over the same period (pg_stat_statements, the side's database).
 */
import { workersOf } from '../cash-out/trials.ts';
import { ROOT } from '../lib/child.ts';
import { printProfile, summariseProfiles } from '../lib/cpu-profile.ts';
import { processTreeCpuSeconds } from '../lib/cpu.ts';
import { num } from '../lib/env.ts';
import { allOk } from '../lib/interleave.ts';
import { runLoad } from '../lib/load.ts';
import { benchPostgres, resetStatements } from '../lib/postgres.ts';
import { startServiceProcess } from '../lib/service-process.ts';
import { fmt, formatLoad, formatStatuses, loadAverage } from '../lib/stats.ts';

export async function profileToken(dir: string, side: string, top: number): Promise<void> {
  const load = { clients: num('BENCH_CLIENTS', 16), seconds: num('BENCH_SECONDS', 10), warmupSeconds: num('BENCH_WARMUP_SECONDS', 2) };
  const pgs = await benchPostgres();
  console.log(`CPU profile of the service (${side}, started as users start it, with --cpu-prof) under load "token" (${load.clients} clients); load average ${formatLoad(loadAverage())} at start`);
  console.log(`PostgreSQL: ${pgs.describe}`);
  const s = await startServiceProcess(pgs, { settlementDelayMs: 200, workers: workersOf(side), cpuProfileDir: dir });
  let window: [number, number];
  let oks: number;
  try {
    const identities = await s.makeIdentities(num('BENCH_IDENTITIES', 32));
    await resetStatements(pgs, s.database);
    const db0 = pgs.cpuSeconds();
    const own0 = processTreeCpuSeconds(s.pid);
    const t0 = process.hrtime.bigint();
    const m = await runLoad(s.origin, { kind: 'token', identities }, load);
    const t1 = process.hrtime.bigint();
    window = [Number(t0 / 1000n), Number(t1 / 1000n)];
    oks = allOk(m);
    const db = pgs.cpuSeconds();
    const own = processTreeCpuSeconds(s.pid) - own0;
    console.log(`\nload: ${fmt(m.okPerSecond)} 2xx/s measured, statuses ${formatStatuses(m.statuses)}, load ${formatLoad(m.loadBefore)} -> ${formatLoad(m.loadAfter)}`);
    console.log(`CPU per 2xx (warm-up included): the service's processes ${((own * 1000) / Math.max(1, oks)).toFixed(3)} ms, PostgreSQL ${db !== undefined && db0 !== undefined ? (((db - db0) * 1000) / Math.max(1, oks)).toFixed(3) : 'n/a'} ms`);
    if (pgs.statements) {
      const rows = await pgs.query<{ query: string; calls: string; ms: string }>(
        `SELECT left(regexp_replace(s.query, '\\s+', ' ', 'g'), 110) AS query, s.calls, s.total_exec_time AS ms FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = $1 AND s.query NOT LIKE '%bench-observer%' ORDER BY s.total_exec_time DESC LIMIT ${top}`,
        [s.database],
      );
      console.log(`\nPostgreSQL statements over the load (per 2xx: calls, ms):`);
      for (const r of rows) console.log(`  ${(Number(r.calls) / Math.max(1, oks)).toFixed(3).padStart(7)}  ${(Number(r.ms) / Math.max(1, oks)).toFixed(3).padStart(7)} ms  ${r.query}`);
    }
  } finally {
    await s.close();
  }
  printProfile(summariseProfiles(dir, ROOT, window[0], window[1]), oks, top);
  console.log(`\nprofiles: ${dir} (open a .cpuprofile in Chrome DevTools > Performance)`);
  console.log(`load average ${formatLoad(loadAverage())} at the end`);
}
