import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { lsnOf } from '../../src/db/read-replica.ts';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.variable} ${p.message}`);
    throw error;
  }
  return [];
};

describe('DATABASE_READ_URL and DATABASE_READ_MAX_LAG_MS (issue 31 item 3)', () => {
  it('reads on the primary only when unset', () => {
    expect(loadConfig({}).databaseRead).toBeUndefined();
  });

  it('takes one replica or several (libpq multi-host form), with a 5000 ms lag bound by default', () => {
    const primary = 'postgres://app@db1:5432/pix';
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://app@replica:5432/pix' }).databaseRead).toEqual({ url: 'postgres://app@replica:5432/pix', maxLagMs: 5_000 });
    const several = 'postgresql://app@r1:5432,r2:5433/pix?target_session_attrs=standby';
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: several, DATABASE_READ_MAX_LAG_MS: '250' }).databaseRead).toEqual({ url: several, maxLagMs: 250 });
  });

  it('names the variable of each mistake', () => {
    expect(problemsOf({ DATABASE_READ_URL: 'postgres://app@replica/pix' })).toEqual([expect.stringMatching(/^DATABASE_READ_URL needs DATABASE_URL/)]);
    expect(problemsOf({ DATABASE_URL: 'postgres://a@p/pix', DATABASE_READ_URL: 'mysql://replica/pix' })).toEqual([expect.stringMatching(/^DATABASE_READ_URL must start with postgres:\/\//)]);
    expect(problemsOf({ DATABASE_URL: 'postgres://a@p/pix', DATABASE_READ_URL: 'postgres://a@r1,/pix' })).toEqual([expect.stringMatching(/^DATABASE_READ_URL has an empty host/)]);
    expect(problemsOf({ DATABASE_URL: 'postgres://a@p/pix', DATABASE_READ_URL: 'postgres://a@r/pix', DATABASE_READ_MAX_LAG_MS: 'soon' })).toEqual([expect.stringMatching(/^DATABASE_READ_MAX_LAG_MS must be a whole number/)]);
  });
});

describe('WAL positions', () => {
  it('compare as numbers across the segment boundary', () => {
    expect(lsnOf('0/FFFFFFFF') < lsnOf('1/0')).toBe(true);
    expect(lsnOf('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
  });
});
