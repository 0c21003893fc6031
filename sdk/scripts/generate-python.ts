/**
 * Regenerates the generated modules of the Python SDK (sdk-python/pix_account_service: models.py,
 * _resources.py, _async_resources.py, _clients.py) from the service's OpenAPI document.
 * `npm run sdk:python` writes them; `npm run sdk:python -- --check` fails when one is out of date
 * (test/sdk/python-sdk.test.ts runs the same comparison in the unit tier).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pythonFromDocument } from './python-from-document.ts';
import { exportDocument } from '../../scripts/document.ts';

const folder = fileURLToPath(new URL('../../sdk-python/pix_account_service/', import.meta.url));
const files = pythonFromDocument(await exportDocument());
const check = process.argv.includes('--check');
let stale = 0;
for (const [name, text] of Object.entries(files)) {
  const target = folder + name;
  if (check) {
    let committed: string | undefined;
    try {
      committed = readFileSync(target, 'utf8');
    } catch {
      committed = undefined;
    }
    if (committed !== text) {
      console.error(`sdk-python/pix_account_service/${name} is out of date: run npm run sdk:python`);
      stale += 1;
    }
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
}
if (stale) process.exit(1);
