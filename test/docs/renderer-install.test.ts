import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));

// swagger-ui-dist (the /docs renderer) depends on @scarf/scarf, whose install script reports the
// install to scarf.sh. The project opts out the documented way (`scarfSettings.enabled: false` in the
// root package.json), so an install neither phones home nor waits on a network it may not have.
describe('the /docs renderer installs without phoning home', () => {
  it('the root package.json opts out of Scarf', () => {
    expect(manifest.dependencies['swagger-ui-dist']).toBeDefined();
    expect(manifest.scarfSettings).toEqual({ enabled: false });
  });

  it('Scarf\'s install script, run as npm runs it here, stops at the opt-out and opens no connection', async () => {
    // Any connection or name look-up attempted by the script (or what it starts) is written to stderr and refused.
    const guard = path.join(mkdtempSync(path.join(tmpdir(), 'scarf-guard-')), 'guard.cjs');
    writeFileSync(
      guard,
      `const refuse = (what) => (...args) => { process.stderr.write('NETWORK ' + what + ' ' + JSON.stringify(args[0]) + '\\n'); throw new Error('network refused by the test'); };
for (const m of ['http', 'https']) { const mod = require(m); mod.request = refuse(m + '.request'); mod.get = refuse(m + '.get'); }
const net = require('net'); net.connect = net.createConnection = refuse('net.connect');
const dns = require('dns'); dns.lookup = refuse('dns.lookup');
`,
    );
    const env: Record<string, string | undefined> = { ...process.env, INIT_CWD: process.cwd(), SCARF_VERBOSE: 'true', NODE_OPTIONS: `--require ${guard}` };
    // Only package.json's setting may opt out here.
    for (const name of ['SCARF_ANALYTICS', 'SCARF_NO_ANALYTICS', 'DO_NOT_TRACK']) delete env[name];
    // Scarf bounds its own `npm ls` to 3 s; on a loaded machine that may lapse before it reads the
    // opt-out (it then stops with an error, also without a connection): run it again, at most 3 times.
    let said = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      const { stdout, stderr } = await run(process.execPath, ['node_modules/@scarf/scarf/report.js'], { env, timeout: 60_000 });
      said = `${stdout}\n${stderr}`;
      expect(said).not.toContain('NETWORK');
      if (!/Scarf received an error from npm -ls/.test(said)) break;
    }
    expect(said).toMatch(/Scarf has been disabled via a package\.json|User has opted out/);
    expect(said).not.toContain('NETWORK');
  }, 90_000);
});
