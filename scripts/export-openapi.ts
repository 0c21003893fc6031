/**
 * Writes the OpenAPI document the service serves at /openapi.json to the file named on the command
 * line, or to stdout (`npm run openapi:export -- openapi.json`). The lint in .ci/run reads it.
 */
import { writeFileSync } from 'node:fs';
import { exportDocument } from './document.ts';

const document = `${JSON.stringify(await exportDocument(), null, 2)}\n`;
const target = process.argv[2];
if (target) writeFileSync(target, document);
else process.stdout.write(document);
