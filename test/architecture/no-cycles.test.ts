import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 22, "Done means": `npx madge --circular` finds no import cycle in src/, type imports
 * included (madge's TypeScript detective counts `import type` unless told to skip it; we never do).
 * The same check runs as `npm run check:cycles`.
 */
type Madge = (root: string, config: Record<string, unknown>) => Promise<{ circular(): string[][] }>;
const madge = createRequire(import.meta.url)('madge') as Madge;
const ROOT = path.resolve(import.meta.dirname, '../..');
const config = (tsConfig: string) => ({
  fileExtensions: ['ts', 'tsx'],
  tsConfig,
  excludeRegExp: [/\.test\.tsx?$/],
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});

describe('no import cycles in src/ (madge, type imports included)', () => {
  it('madge finds none', async () => {
    const graph = await madge(path.join(ROOT, 'src'), config(path.join(ROOT, 'tsconfig.json')));
    expect(graph.circular()).toEqual([]);
  }, 120_000);

  it('a cycle made only of type imports is one (the check can fail)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
    try {
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }));
      writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b: B }\n");
      writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport interface B { a: A }\n");
      const graph = await madge(dir, config(path.join(dir, 'tsconfig.json')));
      expect(graph.circular()).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
