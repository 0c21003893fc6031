import { hostname, networkInterfaces } from 'node:os';

/**
 * The WORKERS default on PostgreSQL (issue 23 item 1; docs/decisions.md "WORKERS default").
 *
 * Where PostgreSQL runs on another machine, every core can serve requests: one worker per core.
 * Where it shares this host, its backends need about as much CPU per cash-out as the service does
 * (bench/cash-out: PostgreSQL and the service's process each spend ~1-2 ms of CPU per 2xx), so a
 * worker per core leaves the database nothing and the workers queue behind it: half the cores go to
 * the service, at least one (a 2-core machine runs one worker, which measured faster than two there).
 * An explicit WORKERS always wins.
 */
export function defaultWorkers(cores: number, databaseUrl: string, here: ThisHost = thisHost()): number {
  const all = Math.max(1, Math.floor(cores));
  return databaseSharesHost(databaseUrl, here) ? Math.max(1, Math.floor(all / 2)) : all;
}

export interface ThisHost {
  /** os.hostname() */
  name: string;
  /** This machine's interface addresses. */
  addresses: readonly string[];
}

export function thisHost(): ThisHost {
  const addresses = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => i.address);
  return { name: hostname(), addresses };
}

const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|::1|0:0:0:0:0:0:0:1)$/i;

/**
 * True when a host named in the connection string is this machine: a Unix socket (a path, or no host
 * at all: libpq's default socket), a loopback name or address, this machine's name or one of its
 * interface addresses. With several hosts (a primary and standbys), any local one counts: the
 * primary may be the one here.
 */
export function databaseSharesHost(databaseUrl: string, here: ThisHost): boolean {
  const rest = databaseUrl.replace(/^[a-z]+:\/\//i, '');
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const hostList = authority.slice(authority.lastIndexOf('@') + 1);
  const query = new URLSearchParams(/\?([^#]*)/.exec(rest)?.[1] ?? '');
  const hosts = [...hostList.split(','), ...query.getAll('host').flatMap((h) => h.split(','))].map(hostOf);
  if (hosts.every((h) => h === '') && !query.has('host')) return true; // no host: the default Unix socket
  const local = new Set([here.name.toLowerCase(), ...here.addresses.map((a) => a.toLowerCase())]);
  return hosts.some((h) => h.startsWith('/') || LOOPBACK.test(h) || (h !== '' && local.has(h)));
}

/** "name:port", "[v6]:port", "%2Fvar%2Frun%2Fpostgresql" -> the host alone, decoded, lower case. */
function hostOf(entry: string): string {
  let host = entry.trim();
  try {
    host = decodeURIComponent(host);
  } catch {
    // left as written
  }
  if (host.startsWith('/')) return host;
  const v6 = /^\[([^\]]+)\]/.exec(host);
  if (v6) return v6[1]!.toLowerCase();
  return host.replace(/:\d*$/, '').toLowerCase();
}
