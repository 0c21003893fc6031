#!/usr/bin/env node
// The `pix` command. The published package (which ships no src/) runs its compiled build; a
// repository checkout runs the TypeScript source through tsx (a development dependency of the
// project), so `npx pix` there is always the code beside it, never a stale build.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/esm/cli/main.js', import.meta.url).href);
}
