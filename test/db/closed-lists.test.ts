import { openDatabase } from '../../src/db/database.ts';
import { closedListSuite } from './closed-lists.suite.ts';

closedListSuite(() => openDatabase({ dataDir: 'memory://' }), (database) => database.close());
