import { randomUUID } from 'node:crypto';
import type { PixClient } from '../../client.ts';
import { UsageError } from '../args.ts';
import type { Command } from '../command.ts';
import { accountClient } from '../connection.ts';

/** The webhook event types, each made happen by creating its real objects in the sandbox. */
export const EVENT_TYPES = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const;
type EventType = (typeof EVENT_TYPES)[number];

/** What `--override field=value` can change, with the values used otherwise. */
const DEFAULTS = {
  value: '10.00',
  description: 'pix trigger',
  externalId: '',
  key: 'destino@example.com',
  keyType: 'EMAIL',
  name: 'Fulano de Tal',
  document: '52998224725',
  payerName: 'Pagador Externo',
  payerDocument: '11144477735',
  reason: 'pix trigger',
  cause: 'SCAM',
};
type Fields = typeof DEFAULTS;

/** The fields each event's objects take from the overrides. */
const USES: Record<EventType, Array<keyof Fields>> = {
  cash_in: ['value', 'description', 'externalId', 'payerName', 'payerDocument'],
  cash_out: ['value', 'description', 'externalId', 'key', 'keyType', 'name', 'document'],
  refund_in: ['value', 'externalId', 'reason', 'payerName', 'payerDocument'],
  refund_out: ['value', 'description', 'externalId', 'key', 'keyType', 'name', 'document'],
  med_created: ['value', 'cause', 'description', 'payerName', 'payerDocument'],
  med_accepted: ['value', 'cause', 'description', 'payerName', 'payerDocument'],
  med_rejected: ['value', 'cause', 'description', 'payerName', 'payerDocument'],
};

function fieldsOf(event: EventType, overrides: string[]): Fields {
  const fields = { ...DEFAULTS };
  for (const override of overrides) {
    const at = override.indexOf('=');
    const name = at > 0 ? override.slice(0, at) : '';
    if (!name) throw new UsageError(`--override takes field=value, not "${override}"`);
    if (!(USES[event] as string[]).includes(name)) throw new UsageError(`${event} has no field "${name}" to override; it takes ${USES[event].join(', ')}`);
    fields[name as keyof Fields] = override.slice(at + 1);
  }
  if (!/^\d+(\.\d{1,2})?$/.test(fields.value) || Number(fields.value) <= 0) throw new UsageError(`value must be an amount in BRL with at most 2 decimals, not "${fields.value}"`);
  return fields;
}

const amount = (fields: Fields) => Number(fields.value);
/** Letters and digits, 31 long: valid wherever an externalId goes (a refund's is at most 35). */
const newExternalId = () => `trigger${randomUUID().replace(/-/g, '').slice(0, 24)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the transaction is settled (the sandbox settles after SANDBOX_SETTLEMENT_DELAY_MS). */
async function settled(pix: PixClient, transactionId: string, signal: AbortSignal) {
  const deadline = Date.now() + 60_000;
  for (let wait = 200; ; wait = Math.min(wait * 2, 2_000)) {
    const tx = await pix.transactions.get(transactionId);
    if (tx.status !== 'PENDING') return tx;
    if (Date.now() > deadline || signal.aborted) throw new Error(`transaction ${transactionId} still PENDING`);
    await sleep(wait);
  }
}

type Created = Record<string, string | number>;

/** A PIX received from another bank (refundable, disputable by a MED). */
async function received(pix: PixClient, fields: Fields): Promise<{ transactionId: string; endToEndId: string }> {
  const deposit = await pix.sandbox.deposits.create({ value: amount(fields), payer: { name: fields.payerName, document: fields.payerDocument, ispb: '60746948' } });
  return { transactionId: deposit.transactionId, endToEndId: deposit.endToEndId ?? '' };
}

/** Funds the payout (a deposit of its value), then sends it. */
async function payout(pix: PixClient, fields: Fields, created: Created) {
  const funding = await pix.sandbox.deposits.create({ value: amount(fields) });
  created.fundingDepositId = funding.transactionId;
  const sent = await pix.cashOut.create({
    value: amount(fields),
    externalId: fields.externalId || newExternalId(),
    description: fields.description,
    details: { key: fields.key, keyType: fields.keyType as 'EMAIL', name: fields.name, document: fields.document },
  });
  created.payoutId = sent.transactionId;
  return sent;
}

async function med(pix: PixClient, fields: Fields, created: Created, outcome?: 'APPROVED' | 'REJECTED') {
  const pix_ = await received(pix, fields);
  created.receivedId = pix_.transactionId;
  const opened = await pix.sandbox.med.open({ endToEndId: pix_.endToEndId, cause: fields.cause as never, description: fields.description, amount: amount(fields) });
  created.medId = opened.id;
  if (outcome) {
    await pix.sandbox.med.transition(opened.id, { to: 'RECEIVED' });
    await pix.sandbox.med.transition(opened.id, { to: 'ANALYZED', analysisResult: outcome, analysisDetails: 'pix trigger' });
  }
}

/** Creates, through the public and sandbox routes, the objects whose change emits `event`. */
export async function trigger(pix: PixClient, event: EventType, fields: Fields, signal: AbortSignal): Promise<Created> {
  const created: Created = {};
  switch (event) {
    case 'cash_in': {
      const charge = await pix.charges.create(
        { transaction: { value: amount(fields), description: fields.description, externalId: fields.externalId || newExternalId() }, payer: { fullName: fields.payerName, document: fields.payerDocument } },
        { scenario: 'pending' },
      );
      created.chargeId = charge.transactionId;
      await pix.sandbox.charges.pay(charge.transactionId);
      break;
    }
    case 'cash_out':
      await payout(pix, fields, created);
      break;
    case 'refund_in': {
      const original = await received(pix, fields);
      created.receivedId = original.transactionId;
      const refund = await pix.refunds.create(original.transactionId, { refundValue: amount(fields), reason: fields.reason, externalId: fields.externalId || newExternalId() });
      created.refundId = refund.transactionId;
      break;
    }
    case 'refund_out': {
      const sent = await payout(pix, fields, created);
      // The receiving bank can only return a payout that reached it.
      const done = await settled(pix, sent.transactionId, signal);
      if (done.status !== 'CONFIRMED') throw new Error(`payout ${sent.transactionId} ended ${done.status}: nothing to return`);
      const returned = await pix.sandbox.payouts.refund(sent.transactionId, { amount: amount(fields) });
      created.refundOutId = returned.transactionId;
      break;
    }
    case 'med_created':
      await med(pix, fields, created);
      break;
    case 'med_accepted':
      await med(pix, fields, created, 'APPROVED');
      break;
    case 'med_rejected':
      await med(pix, fields, created, 'REJECTED');
      break;
  }
  return created;
}

export const triggerCommand: Command = {
  name: 'trigger',
  spec: {
    usage: 'trigger EVENT [--override field=value ...]',
    summary: 'Creates in the sandbox the real objects that cause EVENT, and prints their ids.',
    details: [
      'Events and what they create:',
      '  cash_in       a charge, paid by a simulated payer',
      '  cash_out      a deposit that funds it, then a payout to a key',
      '  refund_in     a PIX received from another bank, then its refund',
      '  refund_out    a funded payout, settled, then returned by the receiving bank',
      '  med_created   a PIX received, then a MED opened against it',
      '  med_accepted  the same MED, analysed and approved',
      '  med_rejected  the same MED, analysed and rejected',
      `Fields for --override: ${Object.keys(DEFAULTS).join(', ')} (each event takes some; value is BRL, e.g. 12.50).`,
    ],
    options: { override: { type: 'string', multiple: true, help: 'field=value: changes a field of the objects created (repeatable)' } },
  },
  async run({ parsed, connection, out, signal }) {
    const [event, ...rest] = parsed.positionals;
    if (!event) throw new UsageError(`Name the event to trigger: ${EVENT_TYPES.join(', ')}`);
    if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}"`);
    if (!(EVENT_TYPES as readonly string[]).includes(event)) throw new UsageError(`Unknown event "${event}": one of ${EVENT_TYPES.join(', ')}`);
    const fields = fieldsOf(event as EventType, (parsed.values.override as string[] | undefined) ?? []);
    const pix = accountClient(connection());
    const created = await trigger(pix, event as EventType, fields, signal);
    out.result({ event, ...created }, [`Triggered ${event}:`, ...Object.entries(created).map(([name, id]) => `  ${name.padEnd(16)} ${id}`)]);
  },
};
