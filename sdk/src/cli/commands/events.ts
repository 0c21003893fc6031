import { stringOf, UsageError, type Parsed } from '../args.ts';
import type { Command } from '../command.ts';
import { accountClient } from '../connection.ts';
import { EVENT_TYPES } from './trigger.ts';

function typesOf(parsed: Parsed): string | undefined {
  const types = stringOf(parsed.values.type);
  for (const type of types?.split(',') ?? []) {
    if (!(EVENT_TYPES as readonly string[]).includes(type.trim())) throw new UsageError(`Unknown event type "${type}" in --type: ${EVENT_TYPES.join(', ')}`);
  }
  return types;
}

function positiveInteger(value: string | undefined, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new UsageError(`${name} must be a whole number from 1 to ${max}, not "${value}"`);
  return Number(value);
}

/** The one id a command takes. */
function idOf(parsed: Parsed, what: string): string {
  const [id, ...rest] = parsed.positionals;
  if (!id) throw new UsageError(`Give the ${what}`);
  if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}"`);
  return id;
}

export const eventsListCommand: Command = {
  name: 'events list',
  spec: {
    usage: 'events list [--type a,b] [--after EVENT_ID] [--size N] [--all]',
    summary: "Lists the account's events, oldest first, after a cursor (GET /api/events).",
    options: {
      type: { type: 'string', help: `only these types, separated by commas (${EVENT_TYPES.join(', ')})` },
      after: { type: 'string', help: 'the events after this event id (default: from the first)' },
      size: { type: 'string', help: 'events per page (1-100)' },
      all: { type: 'boolean', help: 'every page, not just the first' },
    },
  },
  async run({ parsed, connection, out }) {
    if (parsed.positionals.length) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}"`);
    const type = typesOf(parsed);
    const after = stringOf(parsed.values.after);
    const size = positiveInteger(stringOf(parsed.values.size), '--size', 100);
    const pix = accountClient(connection());
    const list = pix.events.list({ ...(type ? { type } : {}), ...(after ? { after } : {}), ...(size ? { size } : {}) });
    const line = (e: { id: string; type: string; createdAt: string }) => `${e.createdAt}  ${e.type.padEnd(12)}  ${e.id}`;
    if (parsed.values.all) {
      const events = await list.toArray();
      out.result({ data: events }, events.length ? events.map(line) : 'No events.');
      return;
    }
    const page = await list;
    out.result(page, [...(page.data.length ? page.data.map(line) : ['No events.']), ...(page.metadata.hasMore ? [`More: pix events list --after ${page.metadata.next}`] : [])]);
  },
};

export const eventsGetCommand: Command = {
  name: 'events get',
  spec: { usage: 'events get EVENT_ID', summary: 'Shows one event with its payload, exactly the body its webhook carries (GET /api/events/{id}).' },
  async run({ parsed, connection, out }) {
    const id = idOf(parsed, 'event id (msg_...)');
    const event = await accountClient(connection()).events.get(id);
    out.result(event, [`${event.type}  ${event.id}  ${event.createdAt}`, JSON.stringify(event.payload, null, 2)]);
  },
};

/** The transaction an event is about (what POST /api/resend-webhook takes), from its payload. */
function transactionOf(payload: Record<string, unknown>): string | undefined {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  for (const value of [payload.transactionId, payload.endToEndId, data.endToEnd, data.endToEndId, data.transactionId, payload.idempotencyKey]) {
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

export const eventsResendCommand: Command = {
  name: 'events resend',
  spec: {
    usage: 'events resend EVENT_ID [--url URL]',
    summary: "Sends the webhook of the event's transaction again now (POST /api/resend-webhook), to its URLs or once to --url.",
    details: ['The service resends the latest webhook of the transaction the event is about; for several events, use pix deliveries replay.'],
    options: { url: { type: 'string', help: 'send it once to this URL instead (not stored)' } },
  },
  async run({ parsed, connection, out }) {
    const id = idOf(parsed, 'event id (msg_...)');
    const url = stringOf(parsed.values.url);
    const pix = accountClient(connection());
    const event = await pix.events.get(id);
    const transaction = transactionOf(event.payload as Record<string, unknown>);
    if (!transaction) throw new UsageError(`Event ${id} (${event.type}) names no transaction to resend: use pix deliveries replay`);
    const sent = await pix.webhooks.resend(transaction, url ? { url } : {});
    out.result({ event: id, transaction, ...sent }, `Resent ${event.type} of ${transaction}: the receiver answered ${sent.statusCode || 'nothing'} (${sent.message})`);
  },
};
