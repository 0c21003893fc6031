import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { defaultWorkers } from './default-workers.ts';
import { secretTokenProblem, secretTokenRule } from './token-strength.ts';
import { DEFAULT_DB_TIMEOUTS, type DbTimeouts } from './db/pg-pool.ts';
import { DatabaseUrlError, parseReaderUrl, parseWriterUrl } from './db/database-url.ts';

/** The service's configuration: read once from the environment at start-up, then frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicHost: string;
  /** The service's public base URL (`PUBLIC_URL`): token `iss`, OAuth discovery, OpenAPI `servers`. */
  readonly publicUrl: string;
  /** One host, or several in libpq's form (`postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write`). */
  readonly databaseUrl: string | undefined;
  /**
   * DATABASE_READ_URL (one host or several, libpq's form) and DATABASE_READ_MAX_LAG_MS: a streaming
   * replica for the read-only pages and routes (src/db/read-routing.ts); unset, every read is on the primary.
   */
  readonly databaseRead: { readonly url: string; readonly maxLagMs: number } | undefined;
  /** A folder, or `memory://` to keep nothing. */
  readonly dataDir: string;
  readonly mode: 'sandbox' | 'production';
  readonly adminToken: string;
  /** True when the admin token was generated here (sandbox) and must be printed. */
  readonly adminTokenGenerated: boolean;
  readonly institutionIspb: string;
  readonly institutionName: string;
  readonly sandboxSettlementDelayMs: number;
  readonly sandboxMinExpirationS: number;
  readonly webhookRoutesEnabled: boolean;
  readonly logLevel: string;
  /** HTTPS (HTTP/1.1 and HTTP/2) when set; `clientAuth: 'optional'` asks for a client certificate. */
  readonly tls: TlsConfig | undefined;
  /** Who may state the client certificate and X-Forwarded-*: see `trustedProxies()` below. */
  readonly trustedProxies: TrustedProxies;
  /** Bearer token `/metrics` requires; unset: public in sandbox, switched off (404) in production. */
  readonly metricsToken: string | undefined;
  /** Every resource call must carry the client certificate its token is bound to (RFC 8705). */
  readonly requireCertificateBoundTokens: boolean;
  /** PostgreSQL pool size and the bound of every database wait (DB_* variables, milliseconds). */
  readonly database: {
    readonly poolSize: number;
    readonly timeouts: DbTimeouts;
    /** DATABASE_PREPARED_STATEMENTS (default true); false behind a transaction pooler (PgBouncer). */
    readonly preparedStatements: boolean;
    /** DATABASE_LISTEN_URL: a direct session for LISTEN (unset: DATABASE_URL, or none behind a transaction pooler). */
    readonly listenUrl: string | undefined;
  };
  /** CLIENT_SECRET_HASH_KEY: the HMAC key of generated client secrets (unset: kept in the database). */
  readonly clientSecretHashKey: Buffer | undefined;
  /**
   * WORKERS: service processes sharing the port (node:cluster), each with its own pool, batcher and
   * scheduler. Default: 1 on PGlite (one process only may open it); on PostgreSQL the number of cores,
   * or half of them (at least 1) when the database runs on this host (src/default-workers.ts).
   */
  readonly workers: number;
  /**
   * SHUTDOWN_DELAY_MS: after SIGTERM, how long the service keeps serving with /ready answering 503
   * (so a load balancer stops sending) before it stops accepting. 5000 in production, 0 in sandbox.
   */
  readonly shutdownDelayMs: number;
  /** PIX_NETWORK: the simulator (sandbox mode) or an upstream provider (production mode). */
  readonly pixNetwork: 'sandbox' | 'provider';
  /** The upstream provider's connection (PROVIDER_*), set exactly when `pixNetwork` is `provider`. */
  readonly provider: ProviderConfig | undefined;
  /**
   * WEBHOOK_SECRET_OVERLAP_S: after a webhook signing-secret rotation, how long (service clock) the
   * previous secret still signs deliveries beside the new one (default 86400).
   */
  readonly webhookSecretOverlapS: number;
  /** PORTAL_REQUIRE_2FA: who must sign in to the portal with a second factor (issue 30; default `off`). */
  readonly portalRequire2fa: 'off' | 'operators' | 'all';
}

/** How this service reaches its upstream PIX provider (issue 13; docs/decisions.md "Provider adapter"). */
export interface ProviderConfig {
  /** PROVIDER_URL without a trailing slash: https://, or http:// on loopback only. */
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The client certificate the provider registered, and its key (PEM files, read at start). */
  readonly certFile: string;
  readonly keyFile: string;
  /** PROVIDER_CA_FILE: a private CA that signed the provider's server certificate (optional). */
  readonly caFile: string | undefined;
  /** PROVIDER_CERT_HEADER: also send the certificate URL-encoded in X-SSL-Client-Cert (a provider behind a TLS proxy). */
  readonly certHeader: boolean;
  /** PROVIDER_WEBHOOK_SECRET: the `whsec_` key that signs the provider's notices. */
  readonly webhookSecret: string;
  /** PROVIDER_RECONCILE_AFTER_S: how long a payout or charge waits for a notice before the provider is asked. */
  readonly reconcileAfterS: number;
}

export interface TlsConfig {
  readonly certFile: string;
  readonly keyFile: string;
  readonly clientAuth: 'none' | 'optional';
}

/** `any` caller, or only these addresses and CIDRs (an empty list trusts none). */
export type TrustedProxies = 'any' | readonly string[];

/** One refused variable: its name and what is wrong with it. */
export interface ConfigProblem {
  readonly variable: string;
  readonly message: string;
}

/**
 * The configuration was refused. Every problem found is listed (one start tells everything to fix);
 * `variable` names the first.
 */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  constructor(variable: string, message: string);
  constructor(problems: readonly ConfigProblem[]);
  constructor(first: string | readonly ConfigProblem[], message?: string) {
    const problems = typeof first === 'string' ? [{ variable: first, message: message! }] : first;
    super(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]!.variable} ${problems[0]!.message}`
        : `Invalid configuration: ${problems.length} problems (nothing was started; fix them all):\n${problems.map((p) => `  - ${p.variable} ${p.message}`).join('\n')}`,
    );
    this.problems = Object.freeze([...problems]);
  }

  get variable(): string {
    return this.problems[0]!.variable;
  }
}

/** Collects the problems of a configuration instead of stopping at the first. */
class Problems {
  readonly list: ConfigProblem[] = [];

  add(variable: string, message: string): void {
    this.list.push({ variable, message });
  }

  /** The value `read` answers, or `fallback` once its ConfigError is noted (the checks go on). */
  take<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.list.push(...error.problems);
      return fallback;
    }
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new ConfigError(this.list);
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be "true" or "false", got "${raw}"`);
}

/**
 * A file a variable names (a PEM certificate or key), read at start: one that cannot be read is
 * reported under its variable's name with the reason, never as a bare ENOENT stack.
 */
function readNamedFile(problems: Problems, variable: string, file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (code ?? (error as Error).message);
    problems.add(variable, `cannot be read (${reason}): ${file}`);
    return undefined;
  }
}

/** A certificate file and its key file must hold a PEM certificate and the private key that matches it. */
function checkKeyPair(problems: Problems, certVariable: string, keyVariable: string, cert: Buffer, key: Buffer): void {
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    problems.add(certVariable, `and ${keyVariable} must hold a PEM certificate and its matching private key (${(error as Error).message})`);
  }
}

/**
 * `PUBLIC_URL`: the base URL clients use (scheme, host, optional port and path prefix), in every
 * absolute URL the service writes (invitations, token `iss`, discovery, the start-up banner); defaults
 * to `PUBLIC_HOST` over the scheme this process serves (https with TLS_CERT_FILE). Normalised without a
 * trailing slash, so `iss` compares exactly (RFC 8414).
 */
function publicUrlOf(raw: string | undefined, publicHost: string, tls: boolean): string {
  if (raw === undefined || raw === '') return `${tls ? 'https' : 'http'}://${publicHost}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError('PUBLIC_URL', 'must use http:// or https://');
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError('PUBLIC_URL', 'must not carry credentials, a query or a fragment');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function loadConfig(env: Env = process.env): Config {
  const problems = new Problems();
  const port = problems.take(() => integer(env, 'PORT', 3000, 0, 65535), 3000);
  const host = env.HOST || '127.0.0.1';
  const rawMode = env.MODE || 'sandbox';
  // An unknown mode is judged as production from here on: every rule production adds is reported too.
  const mode: Config['mode'] = rawMode === 'sandbox' || rawMode === 'production' ? rawMode : 'production';
  if (rawMode !== mode) problems.add('MODE', `must be "sandbox" or "production", got "${rawMode}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.add('DATABASE_URL', 'must start with postgres:// or postgresql://');
  } else if (databaseUrl !== undefined) {
    problems.take(() => databaseUrlOk(databaseUrl), undefined);
  }
  const allowEmbeddedDatabase = problems.take(() => boolean(env, 'ALLOW_EMBEDDED_DATABASE', false), false);
  if (mode === 'production' && databaseUrl === undefined && !allowEmbeddedDatabase) {
    problems.add(
      'DATABASE_URL',
      'is required in production mode: without it the ledger would live in the embedded database, a local folder one process can open; set DATABASE_URL=postgres://... (or ALLOW_EMBEDDED_DATABASE=true to run production on the embedded database anyway)',
    );
  }
  let adminToken = env.ADMIN_TOKEN || '';
  let adminTokenGenerated = false;
  if (adminToken === '') {
    if (mode === 'production') problems.add('ADMIN_TOKEN', `is required in production mode (${secretTokenRule('production')})`);
    adminToken = `adm_${randomBytes(24).toString('base64url')}`;
    adminTokenGenerated = true;
  } else {
    const weakness = secretTokenProblem(adminToken, mode);
    if (weakness) problems.add('ADMIN_TOKEN', weakness);
  }
  const institutionIspb = env.INSTITUTION_ISPB || '99999999';
  if (!/^\d{8}$/.test(institutionIspb)) problems.add('INSTITUTION_ISPB', 'must be exactly 8 digits');
  const publicHost = env.PUBLIC_HOST || `127.0.0.1:${port}`;
  if (/^[a-z]+:\/\//i.test(publicHost) || /\s|\//.test(publicHost)) {
    problems.add('PUBLIC_HOST', 'must be a host and optional port, without a scheme or path');
  }
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined) {
    if (metricsToken === adminToken) problems.add('METRICS_TOKEN', 'must differ from ADMIN_TOKEN (a scraper must not hold the admin token)');
    else {
      const weakness = secretTokenProblem(metricsToken, mode);
      if (weakness) problems.add('METRICS_TOKEN', weakness);
    }
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.add('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const tls = tlsConfig(env, problems);
  const publicUrl = problems.take(() => publicUrlOf(env.PUBLIC_URL, publicHost, tls !== undefined), `http://${publicHost}`);
  const pixNetwork = problems.take(() => pixNetworkOf(env, mode), undefined);
  const provider = pixNetwork === 'provider' ? providerConfig(env, problems) : undefined;
  if (pixNetwork === 'provider' && (env.PUBLIC_URL === undefined || env.PUBLIC_URL === '')) {
    problems.add('PUBLIC_URL', 'is required with PIX_NETWORK=provider: the provider sends its notices to PUBLIC_URL/network/provider/webhooks');
  }
  const config = {
    port,
    host,
    publicHost,
    publicUrl,
    databaseUrl,
    databaseRead: problems.take(() => databaseRead(env, databaseUrl), undefined),
    dataDir: env.DATA_DIR || './data',
    mode,
    adminToken,
    adminTokenGenerated,
    institutionIspb,
    institutionName: env.INSTITUTION_NAME || 'PIX Account Sandbox',
    sandboxSettlementDelayMs: problems.take(() => integer(env, 'SANDBOX_SETTLEMENT_DELAY_MS', 1000, 0, 3_600_000), 0),
    sandboxMinExpirationS: problems.take(() => integer(env, 'SANDBOX_MIN_EXPIRATION_S', 60, 30, 604_800), 0),
    webhookRoutesEnabled: problems.take(() => boolean(env, 'WEBHOOK_ROUTES_ENABLED', false), false),
    logLevel,
    metricsToken,
    requireCertificateBoundTokens: problems.take(() => boolean(env, 'REQUIRE_CERTIFICATE_BOUND_TOKENS', mode === 'production'), false),
    database: databaseSettings(env, problems),
    tls,
    trustedProxies: problems.take(() => trustedProxies(env, mode, tls), []),
    clientSecretHashKey: problems.take(() => clientSecretHashKey(env), undefined),
    workers: problems.take(() => workers(env, databaseUrl), 1),
    shutdownDelayMs: problems.take(() => integer(env, 'SHUTDOWN_DELAY_MS', mode === 'production' ? 5_000 : 0, 0, 600_000), 0),
    pixNetwork,
    provider,
    webhookSecretOverlapS: problems.take(() => integer(env, 'WEBHOOK_SECRET_OVERLAP_S', 86_400, 0, 30 * 86_400), 86_400),
    portalRequire2fa: problems.take(() => portalRequire2fa(env), 'off'),
  };
  problems.throwIfAny();
  return Object.freeze({ ...config, pixNetwork: pixNetwork! });
}

/** PORTAL_REQUIRE_2FA: `off` (default), `operators` (every operator) or `all` (everyone). */
function portalRequire2fa(env: Env): 'off' | 'operators' | 'all' {
  const raw = env.PORTAL_REQUIRE_2FA || 'off';
  if (raw === 'off' || raw === 'operators' || raw === 'all') return raw;
  throw new ConfigError('PORTAL_REQUIRE_2FA', `must be one of off, operators, all, got "${raw}"`);
}

/**
 * PIX_NETWORK: `sandbox` (the simulator; the default, and the only choice, in sandbox mode, whose
 * routes drive it) or `provider` (production's only choice: real money moves through the provider).
 */
function pixNetworkOf(env: Env, mode: 'sandbox' | 'production'): 'sandbox' | 'provider' {
  const raw = env.PIX_NETWORK || (mode === 'sandbox' ? 'sandbox' : undefined);
  if (raw === undefined) {
    throw new ConfigError(
      'PIX_NETWORK',
      'is required in production mode: set PIX_NETWORK=provider and PROVIDER_URL, PROVIDER_CLIENT_ID, PROVIDER_CLIENT_SECRET, PROVIDER_CERT_FILE, PROVIDER_KEY_FILE, PROVIDER_WEBHOOK_SECRET and PUBLIC_URL (README, "Production in front of a PIX provider"); without a provider no PIX can leave or enter',
    );
  }
  if (raw !== 'sandbox' && raw !== 'provider') throw new ConfigError('PIX_NETWORK', `must be "sandbox" or "provider", got "${raw}"`);
  if (raw === 'sandbox' && mode === 'production') {
    throw new ConfigError('PIX_NETWORK', 'cannot be "sandbox" in production mode: the simulator moves no real money; use PIX_NETWORK=provider');
  }
  if (raw === 'provider' && mode === 'sandbox') {
    throw new ConfigError('PIX_NETWORK', 'can be "provider" only in production mode (MODE=production): sandbox mode\'s routes drive the simulator');
  }
  return raw;
}

const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i;

/** The PROVIDER_* variables; each bad or missing value names its variable, all of them at once. */
function providerConfig(env: Env, problems: Problems): ProviderConfig | undefined {
  const before = problems.list.length;
  const required = (name: string): string => {
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      problems.add(name, 'is required with PIX_NETWORK=provider');
      return '';
    }
    return value.trim();
  };
  const raw = required('PROVIDER_URL');
  let url: URL | undefined;
  if (raw !== '') {
    try {
      url = new URL(raw);
    } catch {
      problems.add('PROVIDER_URL', `must be an absolute https:// URL, got "${raw}"`);
    }
  }
  if (url && url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname))) {
    problems.add('PROVIDER_URL', 'must use https:// (http:// is accepted only on a loopback address, for tests)');
  } else if (url && (url.search || url.hash || url.username || url.password)) {
    problems.add('PROVIDER_URL', 'must not carry credentials, a query or a fragment');
  }
  const clientId = required('PROVIDER_CLIENT_ID');
  const clientSecret = required('PROVIDER_CLIENT_SECRET');
  if (clientSecret !== '' && (clientSecret.length < 8 || clientSecret.length > 64)) {
    problems.add('PROVIDER_CLIENT_SECRET', 'must have 8 to 64 characters (the provider\'s rule)');
  }
  const webhookSecret = required('PROVIDER_WEBHOOK_SECRET');
  if (webhookSecret !== '' && (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(webhookSecret) || Buffer.from(webhookSecret.slice(6), 'base64').length < 16)) {
    problems.add('PROVIDER_WEBHOOK_SECRET', 'must be the provider\'s Standard Webhooks secret: "whsec_" followed by base64 of at least 16 bytes');
  }
  const certFile = required('PROVIDER_CERT_FILE');
  const keyFile = required('PROVIDER_KEY_FILE');
  const cert = certFile ? readNamedFile(problems, 'PROVIDER_CERT_FILE', certFile) : undefined;
  const key = keyFile ? readNamedFile(problems, 'PROVIDER_KEY_FILE', keyFile) : undefined;
  if (cert && key) checkKeyPair(problems, 'PROVIDER_CERT_FILE', 'PROVIDER_KEY_FILE', cert, key);
  const caFile = env.PROVIDER_CA_FILE || undefined;
  if (caFile) readNamedFile(problems, 'PROVIDER_CA_FILE', caFile);
  const certHeader = problems.take(() => boolean(env, 'PROVIDER_CERT_HEADER', false), false);
  const reconcileAfterS = problems.take(() => integer(env, 'PROVIDER_RECONCILE_AFTER_S', 60, 1, 86_400), 60);
  if (problems.list.length > before || !url) return undefined;
  return Object.freeze({
    url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
    clientId,
    clientSecret,
    certFile,
    keyFile,
    caFile,
    certHeader,
    webhookSecret,
    reconcileAfterS,
  });
}

/** DATABASE_URL's host list and target_session_attrs (libpq's multi-host form), read as the pool will. */
function databaseUrlOk(url: string) {
  try {
    parseWriterUrl(url);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new ConfigError('DATABASE_URL', error.message);
    throw error;
  }
}

/** DATABASE_READ_URL and DATABASE_READ_MAX_LAG_MS (default 5000): a replica needs PostgreSQL as the primary too. */
function databaseRead(env: Env, databaseUrl: string | undefined): Config['databaseRead'] {
  const maxLagMs = integer(env, 'DATABASE_READ_MAX_LAG_MS', 5_000, 0, 3_600_000);
  const url = env.DATABASE_READ_URL || undefined;
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new ConfigError('DATABASE_READ_URL', 'must start with postgres:// or postgresql://');
  try {
    parseReaderUrl(url);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new ConfigError('DATABASE_READ_URL', error.message);
    throw error;
  }
  if (databaseUrl === undefined) throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL: a read replica follows a PostgreSQL primary, not the embedded database');
  return Object.freeze({ url, maxLagMs });
}

/** WORKERS: 1 with the embedded database (refused above 1); on PostgreSQL see defaultWorkers(). */
function workers(env: Env, databaseUrl: string | undefined): number {
  const count = integer(env, 'WORKERS', databaseUrl ? defaultWorkers(availableParallelism(), databaseUrl) : 1, 1, 256);
  if (count > 1 && !databaseUrl) {
    throw new ConfigError(
      'WORKERS',
      `must be 1 with the embedded database (PGlite can be opened by one process only), got ${count}; set DATABASE_URL to run several processes on PostgreSQL`,
    );
  }
  return count;
}

/** TLS_*: both files or neither; each must be readable, and together a certificate and its key. */
function tlsConfig(env: Env, problems: Problems): TlsConfig | undefined {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  const clientAuth = env.TLS_CLIENT_AUTH || 'none';
  if (clientAuth !== 'none' && clientAuth !== 'optional') {
    problems.add('TLS_CLIENT_AUTH', `must be "optional" (or "none"), got "${clientAuth}"`);
  }
  if (certFile === undefined && keyFile === undefined) {
    if (clientAuth === 'optional') problems.add('TLS_CLIENT_AUTH', 'needs TLS_CERT_FILE and TLS_KEY_FILE');
    return undefined;
  }
  if (certFile === undefined) problems.add('TLS_CERT_FILE', 'is required when TLS_KEY_FILE is set');
  if (keyFile === undefined) problems.add('TLS_KEY_FILE', 'is required when TLS_CERT_FILE is set');
  const cert = certFile ? readNamedFile(problems, 'TLS_CERT_FILE', certFile) : undefined;
  const key = keyFile ? readNamedFile(problems, 'TLS_KEY_FILE', keyFile) : undefined;
  if (cert && key) checkKeyPair(problems, 'TLS_CERT_FILE', 'TLS_KEY_FILE', cert, key);
  if (!certFile || !keyFile || (clientAuth !== 'none' && clientAuth !== 'optional')) return undefined;
  return Object.freeze({ certFile, keyFile, clientAuth });
}

/**
 * TRUSTED_PROXIES: comma-separated addresses and CIDRs. Unset: a plain-HTTP sandbox trusts any caller
 * (the local sandbox and its tests send X-SSL-Client-Cert directly); production, or a service that
 * terminates TLS itself, trusts none.
 */
function trustedProxies(env: Env, mode: string, tls: TlsConfig | undefined): TrustedProxies {
  const raw = env.TRUSTED_PROXIES;
  if (raw === undefined || raw.trim() === '') return mode === 'sandbox' && tls === undefined ? 'any' : Object.freeze([]);
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError('TRUSTED_PROXIES', `must list IP addresses or CIDRs separated by commas; "${entry}" is neither`);
    }
  }
  return Object.freeze(entries);
}

/** DB_POOL_SIZE and the DB_*_MS bounds (docs/decisions.md "Database faults"); every bad one reported. */
function databaseSettings(env: Env, problems: Problems): Config['database'] {
  const d = DEFAULT_DB_TIMEOUTS;
  const ms = (name: string, fallback: number) => problems.take(() => integer(env, name, fallback, 1, 3_600_000), fallback);
  const timeouts: DbTimeouts = {
    connectMs: ms('DB_CONNECT_TIMEOUT_MS', d.connectMs),
    acquireMs: ms('DB_POOL_ACQUIRE_TIMEOUT_MS', d.acquireMs),
    statementMs: ms('DB_STATEMENT_TIMEOUT_MS', d.statementMs),
    lockMs: ms('DB_LOCK_TIMEOUT_MS', d.lockMs),
    idleInTransactionMs: ms('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', d.idleInTransactionMs),
    queryMs: ms('DB_QUERY_TIMEOUT_MS', d.queryMs),
    keepAliveInitialDelayMs: ms('DB_KEEPALIVE_DELAY_MS', d.keepAliveInitialDelayMs),
    clientCheckMs: problems.take(() => integer(env, 'DB_CLIENT_CHECK_MS', d.clientCheckMs, 0, 3_600_000), d.clientCheckMs),
  };
  if (timeouts.queryMs <= timeouts.statementMs) {
    // The server's statement_timeout must fire first: it cancels the statement cleanly, while the
    // client-side query timeout has to drop the whole connection.
    problems.add('DB_QUERY_TIMEOUT_MS', `must be greater than DB_STATEMENT_TIMEOUT_MS (${timeouts.statementMs})`);
  }
  const poolSize = problems.take(() => integer(env, 'DB_POOL_SIZE', 10, 1, 1000), 10);
  const preparedStatements = problems.take(() => boolean(env, 'DATABASE_PREPARED_STATEMENTS', true), true);
  const listenUrl = env.DATABASE_LISTEN_URL || undefined;
  if (listenUrl !== undefined) {
    try {
      parseWriterUrl(listenUrl);
    } catch (error) {
      if (!(error instanceof DatabaseUrlError)) throw error;
      problems.add('DATABASE_LISTEN_URL', error.message);
    }
  }
  return Object.freeze({ poolSize, timeouts: Object.freeze(timeouts), preparedStatements, listenUrl });
}

/** CLIENT_SECRET_HASH_KEY: base64 or base64url of at least 32 random bytes (`openssl rand -base64 32`). */
function clientSecretHashKey(env: Env): Buffer | undefined {
  const raw = env.CLIENT_SECRET_HASH_KEY;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(raw)) throw new ConfigError('CLIENT_SECRET_HASH_KEY', 'must be base64 or base64url');
  const key = Buffer.from(raw.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''), 'base64url');
  if (key.length < 32) throw new ConfigError('CLIENT_SECRET_HASH_KEY', `must hold at least 32 bytes (base64 of \`openssl rand -base64 32\`), got ${key.length}`);
  return key;
}
