import { randomBytes } from 'node:crypto';
import { DEFAULT_DB_TIMEOUTS, type DbTimeouts } from './db/pg-pool.ts';

/** The service's configuration: read once from the environment at start-up, then frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicHost: string;
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
  /** PostgreSQL pool size and the bound of every database wait (DB_* variables, milliseconds). */
  readonly database: { readonly poolSize: number; readonly timeouts: DbTimeouts };
  /** CLIENT_SECRET_HASH_KEY: the HMAC key of generated client secrets (unset: kept in the database). */
  readonly clientSecretHashKey: Buffer | undefined;
}

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
  }
  const institutionIspb = env.INSTITUTION_ISPB || '99999999';
  if (!/^\d{8}$/.test(institutionIspb)) throw new ConfigError('INSTITUTION_ISPB', 'must be exactly 8 digits');
  const publicHost = env.PUBLIC_HOST || `127.0.0.1:${port}`;
  if (/^[a-z]+:\/\//i.test(publicHost) || /\s|\//.test(publicHost)) {
    throw new ConfigError('PUBLIC_HOST', 'must be a host and optional port, without a scheme or path');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  return Object.freeze({
    port,
    host,
    publicHost,
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
    database: databaseSettings(env),
    clientSecretHashKey: clientSecretHashKey(env),
  });
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
