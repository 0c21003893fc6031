#!/usr/bin/env node
// The `pix` command. The published package runs its compiled build; inside the repository, before
// any build, it runs the TypeScript source through tsx (a development dependency of the project).
import { existsSync } from 'node:fs';

const built = new URL('../dist/esm/cli/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
