import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('database bounds (DB_* variables)', () => {
  it('bounds every wait by default', () => {
    expect(loadConfig({}).database).toEqual({
      poolSize: 10,
      timeouts: {
        connectMs: 5_000,
        acquireMs: 2_000,
        statementMs: 10_000,
        lockMs: 3_000,
        idleInTransactionMs: 15_000,
        queryMs: 12_000,
        keepAliveInitialDelayMs: 10_000,
        clientCheckMs: 1_000,
      },
      preparedStatements: true,
      listenUrl: undefined,
    });
  });

  it('reads each variable', () => {
    const config = loadConfig({
      DB_POOL_SIZE: '4',
      DB_CONNECT_TIMEOUT_MS: '100',
      DB_POOL_ACQUIRE_TIMEOUT_MS: '200',
      DB_STATEMENT_TIMEOUT_MS: '300',
      DB_LOCK_TIMEOUT_MS: '400',
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '500',
      DB_QUERY_TIMEOUT_MS: '600',
      DB_KEEPALIVE_DELAY_MS: '700',
      DB_CLIENT_CHECK_MS: '0',
    });
    expect(config.database).toEqual({
      poolSize: 4,
      timeouts: { connectMs: 100, acquireMs: 200, statementMs: 300, lockMs: 400, idleInTransactionMs: 500, queryMs: 600, keepAliveInitialDelayMs: 700, clientCheckMs: 0 },
      preparedStatements: true,
      listenUrl: undefined,
    });
  });

  it('reads the pooler settings: DATABASE_PREPARED_STATEMENTS and DATABASE_LISTEN_URL', () => {
    const config = loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false', DATABASE_LISTEN_URL: 'postgres://app@db-direct:5432/pix' });
    expect(config.database.preparedStatements).toBe(false);
    expect(config.database.listenUrl).toBe('postgres://app@db-direct:5432/pix');
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
    expect(() => loadConfig({ DATABASE_LISTEN_URL: 'postgres://a@h1:5432,h2:5432/pix?target_session_attrs=standby' })).toThrow(/DATABASE_LISTEN_URL/);
  });

  it('refuses a zero, a non-number, and a query timeout that would fire before the statement timeout', () => {
    expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: '0' })).toThrow(/DB_LOCK_TIMEOUT_MS/);
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(/DB_STATEMENT_TIMEOUT_MS/);
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: '5000', DB_QUERY_TIMEOUT_MS: '5000' })).toThrow(/DB_QUERY_TIMEOUT_MS/);
  });
});
