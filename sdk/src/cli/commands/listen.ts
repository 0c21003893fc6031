import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { stringOf, UsageError } from '../args.ts';
import type { Command } from '../command.ts';
import { updateProfile } from '../config.ts';
import { accountClient } from '../connection.ts';
import { EVENT_TYPES } from './trigger.ts';

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Posts one event to the receiver, signed; answers its status (or the network error) and the time it took. */
async function forward(url: string, signer: Webhook, event: { id: string; data: string }): Promise<{ status: number | string; ms: number }> {
  const started = performance.now();
  try {
    const signature = signer.sign(event.id, new Date(), event.data);
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pix-cli-listen',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': signature,
      },
      body: event.data,
      signal: AbortSignal.timeout(30_000),
    });
    await answer.arrayBuffer().catch(() => undefined);
    return { status: answer.status, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: cause?.code ?? (error as Error).name, ms: Math.round(performance.now() - started) };
  }
}

export const listenCommand: Command = {
  name: 'listen',
  spec: {
    usage: 'listen --forward-to URL [--events cash_in,cash_out,...]',
    summary: "Forwards the account's events, as they happen, to a local URL, signed like the service's webhooks.",
    details: [
      'Follows GET /api/events/stream and POSTs each event to URL with the webhook headers (webhook-id,',
      'webhook-timestamp, webhook-signature: Standard Webhooks) signed by a local whsec_ secret, printed on the',
      'first lines and kept in the config folder, so your receiver keeps its secret across restarts.',
      'One line per event: type, id, the receiver\'s status, milliseconds. It resumes after a dropped',
      'connection or a restart of the service without losing or repeating an event. Ctrl-C stops it (exit 0).',
      `Event types: ${EVENT_TYPES.join(', ')}.`,
    ],
    options: {
      'forward-to': { type: 'string', help: 'the URL events are POSTed to (e.g. http://localhost:3000/webhooks)' },
      events: { type: 'string', help: 'only these event types, separated by commas (default: all)' },
    },
  },
  async run({ parsed, connection, out, signal }) {
    if (parsed.positionals.length) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}"`);
    const url = stringOf(parsed.values['forward-to']);
    if (!url) throw new UsageError('Give --forward-to URL: where to POST the events');
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`--forward-to must be an http(s) URL, not "${url}"`);
    const types = stringOf(parsed.values.events)?.split(',').map((t) => t.trim()).filter(Boolean);
    for (const type of types ?? []) {
      if (!(EVENT_TYPES as readonly string[]).includes(type)) throw new UsageError(`Unknown event type "${type}" in --events: ${EVENT_TYPES.join(', ')}`);
    }
    const c = connection();
    const pix = accountClient(c);
    await pix.accessToken();
    let secret = c.profile.listenSecret;
    if (!secret) {
      secret = newSecret();
      updateProfile(c.profileName, { listenSecret: secret });
    }
    const signer = new Webhook(secret);
    out.result({ secret, forwardTo: url, events: types ?? EVENT_TYPES }, [`Your webhook signing secret is ${secret} (profile "${c.profileName}")`, `Forwarding ${types?.join(', ') ?? 'every event'} to ${url}`]);

    let connectedOnce = false;
    const stream = pix.events.stream({
      ...(types ? { type: types } : {}),
      signal,
      onConnect: ({ lastEventId }) => {
        if (!connectedOnce) out.result({ ready: true }, 'Ready: waiting for events (Ctrl-C to stop)');
        else out.result({ reconnected: true, lastEventId: lastEventId ?? null }, `Reconnected, resuming after ${lastEventId ?? 'the start'}`);
        connectedOnce = true;
      },
      onReconnect: ({ reason }) => out.result({ disconnected: reason }, `Connection lost (${reason}); reconnecting...`),
    });
    for await (const event of stream) {
      const { status, ms } = await forward(url, signer, event);
      out.result({ type: event.type, id: event.id, status, ms }, `${event.type}  ${event.id}  ${status}  ${ms} ms`);
    }
  },
};
