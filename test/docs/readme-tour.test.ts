import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

const run = promisify(execFile);
const hasCurl = existsSync('/usr/bin/curl');
if (!hasCurl && process.env.CURL_REQUIRED) throw new Error('CURL_REQUIRED is set but /usr/bin/curl is missing (apt-get install curl; .ci/run installs it)');

/**
 * Issue 21 item 6: the README's tour works on any port. Its shell blocks are run as written, with
 * BASE (set once) pointing at a service on a port the system chose, and the tokens a reader pastes.
 */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const shellBlocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
/** The blocks between "First steps" and "Configuration": the tour, the portal and its operators. */
const tour = (() => {
  const start = README.indexOf('## First steps with the demo account');
  const end = README.indexOf('## Configuration');
  return [...README.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
})();

describe('the README tour', () => {
  it('sets BASE once and never hard-codes a host or port in a command', () => {
    expect(tour.length).toBeGreaterThanOrEqual(3);
    const commands = tour.join('\n').split('\n').filter((line) => !line.trim().startsWith('#'));
    expect(commands.filter((line) => /^BASE=/.test(line))).toEqual(['BASE=http://127.0.0.1:3000   # the API: line of the banner']);
    for (const line of commands.filter((l) => !/^BASE=/.test(l))) expect(line).not.toMatch(/localhost:\d|127\.0\.0\.1:\d|:3000/);
    // The admin section's example too.
    const admin = shellBlocks.find((b) => b.includes('/admin/accounts/2/credentials'))!;
    expect(admin).toContain('"$BASE/admin/accounts"');
    expect(admin).not.toMatch(/localhost:3000/);
  });

  describe.skipIf(!hasCurl)('run with curl against a service on another port', () => {
    let h: Harness;
    let base: string;
    let token: string;
    beforeAll(async () => {
      h = await startHarness();
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      const account = await h.createAccount({ funds: 100 });
      token = await h.tokenFor(account.id);
    });
    afterAll(() => h?.close());

    /** Runs one block with the reader's variables set, line by line; answers every command's output. */
    async function runBlock(block: string, substitutions: Record<string, string> = {}) {
      let script = block.replace(/^BASE=.*$/m, `BASE=${base}`).replace(/^TOKEN=\.\.\..*$/m, `TOKEN=${token}`).replace(/^ADMIN_TOKEN=\.\.\..*$/m, `ADMIN_TOKEN=${ADMIN_TOKEN}`);
      for (const [from, to] of Object.entries(substitutions)) script = script.replaceAll(from, to);
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', `BASE=${base}; TOKEN=${token}\n${script.replace(/\ncurl /g, "\necho '<<<'; curl ")}`], { timeout: 60_000 });
      return stdout.split("<<<\n").map((s) => s.trim()).filter(Boolean);
    }

    it('the balance, a payout, a charge paid by the sandbox and the list answer as the README says', async () => {
      const [balance] = await runBlock(tour[0]!);
      expect(JSON.parse(balance!)).toMatchObject({ grossBalance: 100, blockedBalance: 0, netBalance: 100 });
      // The tour's block without the pay command first: the charge's id comes from its answer, as a reader copies it.
      const block = tour[1]!;
      const [payout, charge] = await runBlock(block.slice(0, block.indexOf('# ...and have')));
      expect(JSON.parse(payout!)).toMatchObject({ externalId: 'order-1', status: 'PENDING' });
      const chargeId = JSON.parse(charge!).transactionId as string;
      const rest = await runBlock(`H="Authorization: Bearer $TOKEN"; J='Content-Type: application/json'\n${block.slice(block.indexOf('# ...and have'))}`, { '<transactionId>': chargeId });
      expect(JSON.parse(rest[0]!)).toMatchObject({ transactionId: chargeId, status: 'CONFIRMED' });
      const list = JSON.parse(rest[1]!);
      expect(list.data.map((t: { externalId: string }) => t.externalId)).toEqual(expect.arrayContaining(['order-1', 'charge-1']));
    });

    it("the operators' block creates an operator and invites a member of an account", async () => {
      const account = await h.createAccount();
      const block = tour.find((b) => b.includes('/admin/operators'))!;
      const [operator, member] = await runBlock(block, { '/admin/accounts/2/': `/admin/accounts/${account.id}/` });
      expect(JSON.parse(operator!)).toMatchObject({ email: 'ops@example.com' });
      expect(JSON.parse(member!)).toMatchObject({ email: 'owner@example.com', invitationUrl: expect.stringMatching(/\/portal\/invitations\//) });
    });
  });
});
