import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import { closedListSuite } from '../db/closed-lists.suite.ts';

const url = process.env.TEST_DATABASE_URL!;
const schema = `t_${randomBytes(6).toString('hex')}`;

closedListSuite(
  () => openDatabase({ dataDir: 'memory://', databaseUrl: url, schema, poolSize: 2 }),
  async (database) => {
    await database.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  },
);
