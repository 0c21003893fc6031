// Each build directory says which module format its .js files are (the package itself is "type":
// "module"): dist/cjs is CommonJS, and dist/types too, so TypeScript reads the one declaration set
// the same way from an import and from a require.
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n');
writeFileSync(new URL('../dist/types/package.json', import.meta.url), '{ "type": "commonjs" }\n');
