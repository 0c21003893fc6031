// After `tsc -p tsconfig.build.json`: the files the service reads beside its code at run time
// (SQL migrations, the sandbox's bank list) copied from src/ into the output folder (default dist/)
// at the same relative paths.
import { cpSync } from 'node:fs';

const outDir = process.argv[2] ?? 'dist';
// The portal's static assets (CSS, the small enhancement script) are served from src/portal/assets.
const isAsset = (source) => source.endsWith('.sql') || source.endsWith('.csv') || /[\/]portal[\/]assets[\/]/.test(source);
cpSync('src', outDir, { recursive: true, filter: (source) => !/\.[a-z]+$/i.test(source) || isAsset(source) });
