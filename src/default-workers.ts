import { hostname, networkInterfaces } from 'node:os';
import { parseDatabaseUrl } from './db/database-url.ts';

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
 * primary may be the one here. The hosts are read by the one URL reader (src/db/database-url.ts).
 */
export function databaseSharesHost(databaseUrl: string, here: ThisHost): boolean {
  let hosts: string[];
  try {
    hosts = parseDatabaseUrl(databaseUrl).hosts.map((h) => h.host.toLowerCase());
  } catch {
    // What the URL reader refuses to connect to is a Unix socket (no host, or a path): this machine.
    return true;
  }
  const local = new Set([here.name.toLowerCase(), ...here.addresses.map((a) => a.toLowerCase())]);
  return hosts.some((h) => h.startsWith('/') || LOOPBACK.test(h) || local.has(h));
}
