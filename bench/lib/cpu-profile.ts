/**
 * Reads V8 CPU profiles (`node --cpu-prof`, .cpuprofile JSON) and sums their self time by package
 * and by function, over a window of the monotonic clock (the profiles' timestamps are microseconds of
 * the same clock as process.hrtime, so the benchmark's load period selects its samples).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  files: string[];
  /** Sampled time in the window, all profiles (µs). */
  totalUs: number;
  byPackage: Map<string, number>;
  byFunction: Map<string, number>;
  /** Per process (pid): sampled time and its idle part in the window (µs). */
  processes: Array<{ pid: string; us: number; idleUs: number }>;
}

/** "fastify", "@fastify/ajv-compiler", "src/services", "node:internal/streams", "(garbage collector)", "(native)". */
export function packageOf(frame: CallFrame, root: string): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const file = url.startsWith('file://') ? url.slice('file://'.length) : url;
  const rel = path.relative(root, file);
  if (!rel.startsWith('..')) {
    const parts = rel.split(path.sep);
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return url;
}

/** Sums every main-thread profile in `dir` over [fromUs, toUs] of the monotonic clock. */
export function summariseProfiles(dir: string, root: string, fromUs: number, toUs: number): ProfileSummary {
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is a process's main thread.
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0');
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalUs = 0;
  const processes: ProfileSummary['processes'] = [];
  for (const file of files) {
    const own = { pid: file.split('.')[3]!, us: 0, idleUs: 0 };
    processes.push(own);
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    let t = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.timeDeltas[i] ?? 0;
      if (t < fromUs || t > toUs) continue;
      const weight = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
      const frame = frames.get(profile.samples[i]!)!;
      const pkg = packageOf(frame, root);
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + weight);
      const fn = `${frame.functionName || '(anonymous)'}  [${pkg}${frame.url && !frame.url.includes('/node_modules/') && !frame.url.startsWith('node:') ? `: ${path.basename(frame.url)}` : ''}]`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + weight);
      totalUs += weight;
      own.us += weight;
      if (pkg === '(idle)') own.idleUs += weight;
    }
  }
  return { files, totalUs, byPackage, byFunction, processes };
}

/** Prints a summary: the processes and their idle share, busy time by package and the top functions, per 2xx (`oks`). */
export function printProfile(profile: ProfileSummary, oks: number, top: number): void {
  const n = Math.max(1, oks);
  const pct = (us: number, of: number) => `${((100 * us) / Math.max(1, of)).toFixed(1)}%`;
  const ms = (us: number) => (us / 1000 / n).toFixed(3);
  console.log(`\nservice processes in the profile (${profile.files.length} main threads: the service, or the cluster primary and its workers):`);
  for (const p of profile.processes) console.log(`  pid ${p.pid.padEnd(8)} sampled ${(p.us / 1e6).toFixed(1)} s, idle ${pct(p.idleUs, p.us)}`);
  const busy = profile.totalUs - (profile.byPackage.get('(idle)') ?? 0);
  console.log(`\nbusy time by package (self time; % of the busy samples, ${(busy / 1e6).toFixed(2)} s = ${ms(busy)} ms per 2xx):`);
  for (const [pkg, us] of [...profile.byPackage].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(us, busy).padStart(6)}  ${ms(us).padStart(6)} ms/2xx  ${pkg}`);
  }
  console.log(`\ntop ${top} functions by self time (% of busy):`);
  for (const [fn, us] of [...profile.byFunction].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(us, busy).padStart(6)}  ${fn}`);
  }
}
