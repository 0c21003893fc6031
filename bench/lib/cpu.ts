/** CPU time of a process tree, from /proc (Linux). */
import { readFileSync } from 'node:fs';

const TICKS = 100; // USER_HZ on Linux

/** utime, stime, cutime, cstime of a process, in ticks; undefined once it is gone. */
function times(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return undefined;
  }
}

function children(pid: number): number[] {
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return list ? list.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

/**
 * CPU seconds (user + system) a process and all its descendants have used so far, those that
 * exited included (their parent's cutime/cstime once reaped). For PostgreSQL, the postmaster's tree:
 * backends, WAL writer, checkpointer, autovacuum. A difference of two readings is the CPU used in
 * between (a child exiting between the two reads of one reading can be counted twice: rare, small).
 */
export function processTreeCpuSeconds(pid: number): number {
  let ticks = 0;
  const walk = (p: number) => {
    for (const child of children(p)) walk(child);
    ticks += times(p) ?? 0;
  };
  walk(pid);
  return ticks / TICKS;
}
