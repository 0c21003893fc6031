/**
 * libpq's multi-host connection URI, which node-postgres does not read
 * (`postgres://user:pw@h1:5432,h2:5433/db?target_session_attrs=read-write`): the host list and the
 * session attribute are taken out here, and each host gets an ordinary one-host URL that
 * node-postgres (pg-connection-string) reads as before. The host list may also come as libpq's
 * query parameters (`?host=h1,h2&port=5432,5433`). See host-selector.ts for how a host is chosen.
 */

/** libpq's target_session_attrs values (PostgreSQL 14+ libpq). */
export const SESSION_ATTRS = ['any', 'read-write', 'primary', 'read-only', 'standby', 'prefer-standby'] as const;
export type SessionAttrs = (typeof SESSION_ATTRS)[number];

export interface DatabaseHost {
  readonly host: string;
  readonly port: number;
}

export interface DatabaseTarget {
  /** In the order the URL lists them: libpq tries them in this order. */
  readonly hosts: readonly DatabaseHost[];
  /** target_session_attrs as given, else the default the caller chose. */
  readonly sessionAttrs: SessionAttrs;
  /** True when the URL named target_session_attrs itself. */
  readonly sessionAttrsGiven: boolean;
  /** The one-host URL node-postgres connects with (credentials, database and parameters kept). */
  urlFor(host: DatabaseHost): string;
}

export class DatabaseUrlError extends Error {}

const DEFAULT_PORT = 5432;
/** Query parameters taken out of the per-host URL: the host list, and what node-postgres does not know. */
const TAKEN = new Set(['host', 'hostaddr', 'port', 'target_session_attrs', 'load_balance_hosts']);

/** `host`, `host:port`, `[v6]` or `[v6]:port`. */
function parseHost(entry: string, fallbackPort: number | undefined): DatabaseHost {
  const match = /^(?:\[([0-9a-fA-F:.%]+)\]|([^:[\]]+))(?::(\d*))?$/.exec(entry);
  if (!match) throw new DatabaseUrlError(`cannot read the host "${entry}" (host, host:port or [ipv6]:port)`);
  const host = decodeURIComponent(match[1] ?? match[2]!);
  const port = match[3] ? Number(match[3]) : (fallbackPort ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new DatabaseUrlError(`the port of "${entry}" must be between 1 and 65535`);
  return { host, port };
}

const formatHost = ({ host, port }: DatabaseHost) => `${host.includes(':') ? `[${host}]` : encodeURIComponent(host)}:${port}`;

/** Where a host is, for logs and messages (never the credentials). */
export const describeHost = ({ host, port }: DatabaseHost) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Reads a `postgres://` or `postgresql://` URL with one or several hosts. `defaultAttrs` applies when
 * the URL does not say (the caller decides: the service's writer wants `read-write` as soon as
 * there are several hosts).
 */
export function parseDatabaseUrl(url: string, defaultAttrs: (hostCount: number) => SessionAttrs = () => 'any'): DatabaseTarget {
  const match = /^(postgres(?:ql)?:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(url);
  if (!match) throw new DatabaseUrlError('must start with postgres:// or postgresql://');
  const [, scheme, authority, path, search = ''] = match as unknown as [string, string, string, string, string | undefined];
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const hostList = at >= 0 ? authority.slice(at + 1) : authority;
  const params = new URLSearchParams(search.slice(1));

  // Ports: one per host, or one for all (libpq's rule), from the query when the authority has none.
  const queryPorts = params.get('port')?.split(',').map((p) => p.trim());
  const queryPort = (index: number) => {
    if (!queryPorts) return undefined;
    const raw = queryPorts.length === 1 ? queryPorts[0]! : queryPorts[index];
    if (raw === undefined || !/^\d+$/.test(raw)) throw new DatabaseUrlError('port must list one port, or one per host');
    return Number(raw);
  };
  let entries: string[];
  if (hostList !== '') {
    entries = hostList.split(',');
  } else {
    const queryHosts = params.get('host');
    if (!queryHosts) throw new DatabaseUrlError('names no host');
    entries = queryHosts.split(',').map((h) => h.trim());
    if (entries.some((h) => h.startsWith('/'))) throw new DatabaseUrlError('Unix-domain socket hosts are not supported; name a TCP host');
  }
  if (entries.some((e) => e === '' || e.startsWith(':'))) throw new DatabaseUrlError('has an empty host in its host list');
  if (queryPorts && queryPorts.length > 1 && queryPorts.length !== entries.length) {
    throw new DatabaseUrlError(`port lists ${queryPorts.length} ports for ${entries.length} hosts`);
  }
  const hosts = entries.map((entry, i) => parseHost(entry, queryPort(i)));

  const rawAttrs = params.get('target_session_attrs');
  if (rawAttrs !== null && !(SESSION_ATTRS as readonly string[]).includes(rawAttrs)) {
    throw new DatabaseUrlError(`target_session_attrs must be one of ${SESSION_ATTRS.join(', ')}; got "${rawAttrs}"`);
  }
  const rest = new URLSearchParams([...params].filter(([key]) => !TAKEN.has(key)));
  const query = rest.size > 0 ? `?${rest.toString()}` : '';
  return {
    hosts,
    sessionAttrs: (rawAttrs as SessionAttrs | null) ?? defaultAttrs(hosts.length),
    sessionAttrsGiven: rawAttrs !== null,
    urlFor: (host) => `${scheme}${userinfo}${formatHost(host)}${path}${query}`,
  };
}

/**
 * The service's writer (DATABASE_URL): with several hosts it needs the primary, so `read-write` is
 * the default (libpq's own default, `any`, would settle on a standby that refuses every write);
 * attributes that pick a standby are refused.
 */
export function parseWriterUrl(url: string): DatabaseTarget {
  const target = parseDatabaseUrl(url, (count) => (count > 1 ? 'read-write' : 'any'));
  if (!['any', 'read-write', 'primary'].includes(target.sessionAttrs)) {
    throw new DatabaseUrlError(`target_session_attrs=${target.sessionAttrs} cannot serve writes: use read-write or primary (or any)`);
  }
  return target;
}

/**
 * The read replicas (DATABASE_READ_URL): with several hosts, `prefer-standby` is the default (a
 * standby first, else whichever host answers); any attribute is accepted, since reads run anywhere.
 */
export function parseReaderUrl(url: string): DatabaseTarget {
  return parseDatabaseUrl(url, (count) => (count > 1 ? 'prefer-standby' : 'any'));
}
