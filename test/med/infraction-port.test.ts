import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxNetwork } from '../../src/network/sandbox/sandbox-network.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
let network: SandboxNetwork;
beforeAll(async () => {
  h = await startHarness();
  network = h.c.network as SandboxNetwork;
});
afterAll(() => h.close());

describe('infraction notices through the PixNetwork port', () => {
  it('a notice from the network opens a MED with its block and med_created, and updates move it', async () => {
    const account = await h.createAccount({ funds: 100 });
    const pix = (await h.c.db.selectFrom('transactions').select(['end_to_end_id']).where('account_id', '=', account.id).executeTakeFirstOrThrow());
    const med = (await network.reportInfraction({
      accountId: account.id,
      endToEndId: pix.end_to_end_id!,
      cause: 'SCAM',
      description: 'reported by the network',
      amount: 4000 as never,
    })) as { id: number; status: string; isReconciled: boolean };
    expect(med).toMatchObject({ status: 'OPEN', isReconciled: true });
    expect(await h.balance(account.id)).toEqual({ available: 60, blocked: 40 });
    const events = await h.c.db.selectFrom('events').select('type').where('account_id', '=', account.id).execute();
    expect(events.map((e) => e.type)).toContain('med_created');

    await network.updateInfraction({ accountId: account.id, medId: med.id, to: 'CANCELLED' });
    expect(await h.balance(account.id)).toEqual({ available: 100, blocked: 0 });
  });

  it('codes the network sends are validated, never guessed', async () => {
    const account = await h.createAccount({ funds: 10 });
    const pix = await h.c.db.selectFrom('transactions').select(['end_to_end_id']).where('account_id', '=', account.id).executeTakeFirstOrThrow();
    await expect(
      network.reportInfraction({ accountId: account.id, endToEndId: pix.end_to_end_id!, cause: 'ALIENS', description: null }),
    ).rejects.toThrow(/cause must be one of/);
    await expect(network.updateInfraction({ accountId: account.id, medId: 1, to: 'DONE' })).rejects.toThrow(/to must be one of/);
  });
});
