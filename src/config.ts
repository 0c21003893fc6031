import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { tokenWeakness } from './services/auth/token-strength.ts';
import { DEFAULT_DB_TIMEOUTS, type DbTimeouts } from './db/pg-pool.ts';

/** The service's configuration: read once from the environment at start-up, then frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicHost: string;
  /** The service's public base URL (`PUBLIC_URL`): token `iss`, OAuth discovery, OpenAPI `servers`. */
  readonly publicUrl: string;
  readonly databaseUrl: string | undefined;
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
  readonly database: { readonly poolSize: number; readonly timeouts: DbTimeouts };
  /** CLIENT_SECRET_HASH_KEY: the HMAC key of generated client secrets (unset: kept in the database). */
  readonly clientSecretHashKey: Buffer | undefined;
  /**
   * WORKERS: service processes sharing the port (node:cluster), each with its own pool, batcher and
   * scheduler. Default: 1 on PGlite (one process only may open it), the number of cores on PostgreSQL.
   */
  readonly workers: number;
  /** PIX_NETWORK: the simulator (sandbox mode) or an upstream provider (production mode). */
  readonly pixNetwork: 'sandbox' | 'provider';
  /** The upstream provider's connection (PROVIDER_*), set exactly when `pixNetwork` is `provider`. */
  readonly provider: ProviderConfig | undefined;
  /**
   * WEBHOOK_SECRET_OVERLAP_S: after a webhook signing-secret rotation, how long (service clock) the
   * previous secret still signs deliveries beside the new one (default 86400).
   */
  readonly webhookSecretOverlapS: number;
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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
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
 * `PUBLIC_URL`: the base URL clients use (scheme, host, optional port and path prefix); defaults to
 * `http://` + `PUBLIC_HOST`. Normalised without a trailing slash, so `iss` compares exactly (RFC 8414).
 */
function publicUrlOf(raw: string | undefined, publicHost: string): string {
  if (raw === undefined || raw === '') return `http://${publicHost}`;
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
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const mode = env.MODE || 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production') {
    throw new ConfigError('MODE', `must be "sandbox" or "production", got "${mode}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// or postgresql://');
  }
  let adminToken = env.ADMIN_TOKEN || '';
  let adminTokenGenerated = false;
  if (adminToken === '') {
    if (mode === 'production') throw new ConfigError('ADMIN_TOKEN', 'is required in production mode');
    adminToken = `adm_${randomBytes(24).toString('base64url')}`;
    adminTokenGenerated = true;
  } else if (adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters long');
  } else if (mode === 'production') {
    const weakness = tokenWeakness(adminToken);
    if (weakness) throw new ConfigError('ADMIN_TOKEN', weakness);
  }
  const institutionIspb = env.INSTITUTION_ISPB || '99999999';
  if (!/^\d{8}$/.test(institutionIspb)) throw new ConfigError('INSTITUTION_ISPB', 'must be exactly 8 digits');
  const publicHost = env.PUBLIC_HOST || `127.0.0.1:${port}`;
  if (/^[a-z]+:\/\//i.test(publicHost) || /\s|\//.test(publicHost)) {
    throw new ConfigError('PUBLIC_HOST', 'must be a host and optional port, without a scheme or path');
  }
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined) {
    if (metricsToken === adminToken) throw new ConfigError('METRICS_TOKEN', 'must differ from ADMIN_TOKEN (a scraper must not hold the admin token)');
    const weakness = mode === 'production' ? tokenWeakness(metricsToken) : metricsToken.length < 16 ? 'must be at least 16 characters long' : undefined;
    if (weakness) throw new ConfigError('METRICS_TOKEN', weakness);
  }
  const publicUrl = publicUrlOf(env.PUBLIC_URL, publicHost);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const tls = tlsConfig(env);
  const pixNetwork = pixNetworkOf(env, mode);
  const provider = pixNetwork === 'provider' ? providerConfig(env) : undefined;
  if (provider && (env.PUBLIC_URL === undefined || env.PUBLIC_URL === '')) {
    throw new ConfigError('PUBLIC_URL', 'is required with PIX_NETWORK=provider: the provider sends its notices to PUBLIC_URL/network/provider/webhooks');
  }
  return Object.freeze({
    port,
    host,
    publicHost,
    publicUrl,
    databaseUrl,
    dataDir: env.DATA_DIR || './data',
    mode,
    adminToken,
    adminTokenGenerated,
    institutionIspb,
    institutionName: env.INSTITUTION_NAME || 'PIX Account Sandbox',
    sandboxSettlementDelayMs: integer(env, 'SANDBOX_SETTLEMENT_DELAY_MS', 1000, 0, 3_600_000),
    sandboxMinExpirationS: integer(env, 'SANDBOX_MIN_EXPIRATION_S', 60, 30, 604_800),
    webhookRoutesEnabled: boolean(env, 'WEBHOOK_ROUTES_ENABLED', false),
    logLevel,
    metricsToken,
    requireCertificateBoundTokens: boolean(env, 'REQUIRE_CERTIFICATE_BOUND_TOKENS', mode === 'production'),
    database: databaseSettings(env),
    tls,
    trustedProxies: trustedProxies(env, mode, tls),
    clientSecretHashKey: clientSecretHashKey(env),
    workers: workers(env, databaseUrl),
    pixNetwork,
    provider,
    webhookSecretOverlapS: integer(env, 'WEBHOOK_SECRET_OVERLAP_S', 86_400, 0, 30 * 86_400),
  });
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

/** The PROVIDER_* variables; each bad or missing value names its variable. */
function providerConfig(env: Env): ProviderConfig {
  const required = (name: string): string => {
    const value = env[name];
    if (value === undefined || value.trim() === '') throw new ConfigError(name, 'is required with PIX_NETWORK=provider');
    return value.trim();
  };
  const raw = required('PROVIDER_URL');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PROVIDER_URL', `must be an absolute https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname))) {
    throw new ConfigError('PROVIDER_URL', 'must use https:// (http:// is accepted only on a loopback address, for tests)');
  }
  if (url.search || url.hash || url.username || url.password) throw new ConfigError('PROVIDER_URL', 'must not carry credentials, a query or a fragment');
  const clientSecret = required('PROVIDER_CLIENT_SECRET');
  if (clientSecret.length < 8 || clientSecret.length > 64) throw new ConfigError('PROVIDER_CLIENT_SECRET', 'must have 8 to 64 characters (the provider\'s rule)');
  const webhookSecret = required('PROVIDER_WEBHOOK_SECRET');
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(webhookSecret) || Buffer.from(webhookSecret.slice(6), 'base64').length < 16) {
    throw new ConfigError('PROVIDER_WEBHOOK_SECRET', 'must be the provider\'s Standard Webhooks secret: "whsec_" followed by base64 of at least 16 bytes');
  }
  return Object.freeze({
    url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
    clientId: required('PROVIDER_CLIENT_ID'),
    clientSecret,
    certFile: required('PROVIDER_CERT_FILE'),
    keyFile: required('PROVIDER_KEY_FILE'),
    caFile: env.PROVIDER_CA_FILE || undefined,
    certHeader: boolean(env, 'PROVIDER_CERT_HEADER', false),
    webhookSecret,
    reconcileAfterS: integer(env, 'PROVIDER_RECONCILE_AFTER_S', 60, 1, 86_400),
  });
}

/** WORKERS: 1 with the embedded database (refused above 1), the number of cores on PostgreSQL. */
function workers(env: Env, databaseUrl: string | undefined): number {
  const count = integer(env, 'WORKERS', databaseUrl ? availableParallelism() : 1, 1, 256);
  if (count > 1 && !databaseUrl) {
    throw new ConfigError(
      'WORKERS',
      `must be 1 with the embedded database (PGlite can be opened by one process only), got ${count}; set DATABASE_URL to run several processes on PostgreSQL`,
    );
  }
  return count;
}

function tlsConfig(env: Env): TlsConfig | undefined {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  const clientAuth = env.TLS_CLIENT_AUTH || 'none';
  if (clientAuth !== 'none' && clientAuth !== 'optional') {
    throw new ConfigError('TLS_CLIENT_AUTH', `must be "optional" (or "none"), got "${clientAuth}"`);
  }
  if (certFile === undefined && keyFile === undefined) {
    if (clientAuth === 'optional') throw new ConfigError('TLS_CLIENT_AUTH', 'needs TLS_CERT_FILE and TLS_KEY_FILE');
    return undefined;
  }
  if (certFile === undefined) throw new ConfigError('TLS_CERT_FILE', 'is required when TLS_KEY_FILE is set');
  if (keyFile === undefined) throw new ConfigError('TLS_KEY_FILE', 'is required when TLS_CERT_FILE is set');
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

/** DB_POOL_SIZE and the DB_*_MS bounds (docs/decisions.md "Database faults"). */
function databaseSettings(env: Env): Config['database'] {
  const d = DEFAULT_DB_TIMEOUTS;
  const ms = (name: string, fallback: number) => integer(env, name, fallback, 1, 3_600_000);
  const timeouts: DbTimeouts = {
    connectMs: ms('DB_CONNECT_TIMEOUT_MS', d.connectMs),
    acquireMs: ms('DB_POOL_ACQUIRE_TIMEOUT_MS', d.acquireMs),
    statementMs: ms('DB_STATEMENT_TIMEOUT_MS', d.statementMs),
    lockMs: ms('DB_LOCK_TIMEOUT_MS', d.lockMs),
    idleInTransactionMs: ms('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', d.idleInTransactionMs),
    queryMs: ms('DB_QUERY_TIMEOUT_MS', d.queryMs),
    keepAliveInitialDelayMs: ms('DB_KEEPALIVE_DELAY_MS', d.keepAliveInitialDelayMs),
    clientCheckMs: integer(env, 'DB_CLIENT_CHECK_MS', d.clientCheckMs, 0, 3_600_000),
  };
  if (timeouts.queryMs <= timeouts.statementMs) {
    // The server's statement_timeout must fire first: it cancels the statement cleanly, while the
    // client-side query timeout has to drop the whole connection.
    throw new ConfigError('DB_QUERY_TIMEOUT_MS', `must be greater than DB_STATEMENT_TIMEOUT_MS (${timeouts.statementMs})`);
  }
  return Object.freeze({ poolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 1000), timeouts: Object.freeze(timeouts) });
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
