import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { databaseSharesHost, defaultWorkers, type ThisHost } from '../../src/default-workers.ts';

const here: ThisHost = { name: 'app-1', addresses: ['127.0.0.1', '10.0.0.5', 'fe80::1'] };

describe('WORKERS default on PostgreSQL (issue 23 item 1)', () => {
  it('a database on this host gets half the cores, at least one; elsewhere one worker per core', () => {
    const local = 'postgres://pix@127.0.0.1:5432/pix';
    const remote = 'postgres://pix@db.internal:5432/pix';
    expect(defaultWorkers(1, local, here)).toBe(1);
    expect(defaultWorkers(2, local, here)).toBe(1);
    expect(defaultWorkers(3, local, here)).toBe(1);
    expect(defaultWorkers(4, local, here)).toBe(2);
    expect(defaultWorkers(16, local, here)).toBe(8);
    expect(defaultWorkers(2, remote, here)).toBe(2);
    expect(defaultWorkers(16, remote, here)).toBe(16);
  });

  it('knows the ways a connection string names this host', () => {
    const local = [
      'postgres://u@localhost/pix',
      'postgresql://u:secret@localhost:5433/pix',
      'postgres://127.0.0.1/pix',
      'postgres://127.1.2.3:5432/pix',
      'postgres://u@[::1]:5432/pix',
      'postgres:///pix', // no host: libpq's default Unix socket
      'postgres://u@/pix?host=/var/run/postgresql',
      'postgres://u@%2Fvar%2Frun%2Fpostgresql/pix',
      'postgres://u@APP-1:5432/pix', // this machine's name
      'postgres://u@10.0.0.5/pix', // one of its addresses
      'postgres://u@db-a.internal:5432,127.0.0.1:5433/pix', // several hosts, one here
    ];
    const remote = [
      'postgres://u@db.internal/pix',
      'postgres://u@10.0.0.6:5432/pix',
      'postgres://u@[2001:db8::1]:5432/pix',
      'postgres://u@db-a.internal,db-b.internal/pix',
      'postgres://localhost-db.internal/pix',
      'postgres://u:127.0.0.1@db.internal/pix', // a password that looks like an address
    ];
    for (const url of local) expect(databaseSharesHost(url, here), url).toBe(true);
    for (const url of remote) expect(databaseSharesHost(url, here), url).toBe(false);
  });

  it('is what WORKERS defaults to, and WORKERS set wins', () => {
    const cores = availableParallelism();
    const half = Math.max(1, Math.floor(cores / 2));
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/pix' }).workers).toBe(half);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@localhost/pix?host=/var/run/postgresql' }).workers).toBe(half);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db.internal:5432/pix' }).workers).toBe(cores);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/pix', WORKERS: String(cores) }).workers).toBe(cores);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/pix', WORKERS: '3' }).workers).toBe(3);
  });
});
