import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inMigrationOrder } from '../../src/db/migrate.ts';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));

describe('migrations run in the order of their numbers', () => {
  it('a four-digit number comes after every three-digit one; files of one number by name', () => {
    expect(inMigrationOrder(['1000_b.sql', '997_a.sql', '100_auth.sql', '010_x.sql', '001_f.sql', '720_z.sql', '720_a.sql', '1019_c.sql'])).toEqual([
      '001_f.sql', '010_x.sql', '100_auth.sql', '720_a.sql', '720_z.sql', '997_a.sql', '1000_b.sql', '1019_c.sql',
    ]);
  });

  it('the repository\'s three-digit migrations keep the file-name order they always ran in', () => {
    const files = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql'));
    const ordered = inMigrationOrder(files);
    const threeDigits = files.filter((f) => /^\d{3}_/.test(f)).sort();
    expect(ordered.filter((f) => /^\d{3}_/.test(f))).toEqual(threeDigits);
  });
});
