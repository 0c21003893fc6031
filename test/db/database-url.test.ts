import { parse } from 'pg-connection-string';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { parseDatabaseUrl, parseWriterUrl } from '../../src/db/database-url.ts';

/**
 * Issue 25 item 1: DATABASE_URL in libpq's multi-host form. node-postgres reads one host only, so
 * the list is taken out and each host gets a one-host URL node-postgres reads as before. (The
 * failover itself, on real PostgreSQL servers: test/postgres/failover.test.ts.)
 */
describe('DATABASE_URL with several hosts (libpq form)', () => {
  it('lists the hosts in order, each with its port (5432 when omitted), and keeps credentials, database and parameters per host', () => {
    const target = parseWriterUrl('postgres://app:s%40cret@db1.internal:5433,db2.internal,[::1]:6000/ledger?target_session_attrs=read-write&sslmode=verify-full&application_name=pix');
    expect(target.hosts).toEqual([
      { host: 'db1.internal', port: 5433 },
      { host: 'db2.internal', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect(target.sessionAttrs).toBe('read-write');
    const second = parse(target.urlFor(target.hosts[1]!));
    expect(second).toMatchObject({ user: 'app', password: 's@cret', host: 'db2.internal', port: '5432', database: 'ledger', sslmode: 'verify-full', application_name: 'pix' });
    // libpq's own parameters are taken out: node-postgres would not know them.
    expect(second).not.toHaveProperty('target_session_attrs');
    expect(parse(target.urlFor(target.hosts[2]!))).toMatchObject({ host: '::1', port: '6000' });
  });

  it('reads the host list from libpq query parameters too (one port for all, or one per host)', () => {
    expect(parseWriterUrl('postgresql://app@/ledger?host=a,b&port=5433').hosts).toEqual([
      { host: 'a', port: 5433 },
      { host: 'b', port: 5433 },
    ]);
    expect(parseWriterUrl('postgresql://app@/ledger?host=a,b&port=5433,5434').hosts).toEqual([
      { host: 'a', port: 5433 },
      { host: 'b', port: 5434 },
    ]);
  });

  it('the writer needs the primary: several hosts default to read-write; one host keeps node-postgres\'s behaviour (any)', () => {
    expect(parseWriterUrl('postgres://u@a:1,b:2/d').sessionAttrs).toBe('read-write');
    expect(parseWriterUrl('postgres://u@a:1/d').sessionAttrs).toBe('any');
    expect(parseWriterUrl('postgres://u@a:1,b:2/d?target_session_attrs=primary').sessionAttrs).toBe('primary');
    expect(parseWriterUrl('postgres://u@a:1,b:2/d?target_session_attrs=any').sessionAttrs).toBe('any');
    // libpq's default stays libpq's for a reader.
    expect(parseDatabaseUrl('postgres://u@a:1,b:2/d').sessionAttrs).toBe('any');
  });

  it('the start is refused, naming DATABASE_URL, for a URL the pool could not use', () => {
    const refused = (url: string) => {
      try {
        loadConfig({ DATABASE_URL: url });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error(`${url} was accepted`);
    };
    expect(refused('postgres://u@a:1,b:2/d?target_session_attrs=standby')).toBe(
      'Invalid configuration: DATABASE_URL target_session_attrs=standby cannot serve writes: use read-write or primary (or any)',
    );
    expect(refused('postgres://u@a:1,b:2/d?target_session_attrs=writable')).toContain('target_session_attrs must be one of any, read-write, primary');
    expect(refused('postgres://u@a:1,,b:2/d')).toBe('Invalid configuration: DATABASE_URL has an empty host in its host list');
    expect(refused('postgres://u@a:99999/d')).toContain('port of "a:99999" must be between 1 and 65535');
    expect(refused('postgres://u@/d?host=a,b&port=1,2,3')).toContain('port lists 3 ports for 2 hosts');
    // The accepted forms start as before.
    expect(loadConfig({ DATABASE_URL: 'postgres://u@a:1,b:2/d?target_session_attrs=read-write' }).databaseUrl).toBe('postgres://u@a:1,b:2/d?target_session_attrs=read-write');
  });
});
