/**
 * Regenerates sdk/src/openapi.ts from the service's OpenAPI document (openapi-typescript).
 * `npm run sdk:types` writes it; `npm run sdk:types -- --check` fails when the file is out of date
 * (the suite runs the same comparison in test/sdk/generated-client.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { typesFromDocument } from './types-from-document.ts';
import { exportDocument } from '../../scripts/document.ts';

const target = fileURLToPath(new URL('../src/openapi.ts', import.meta.url));
const generated = await typesFromDocument(await exportDocument());
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== generated) {
    console.error('sdk/src/openapi.ts is out of date: run npm run sdk:types');
    process.exit(1);
  }
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
