import { stringOf, UsageError, type Parsed } from '../args.ts';
import type { Command } from '../command.ts';
import { accountClient, adminClient } from '../connection.ts';
import { EVENT_TYPES } from './trigger.ts';

function accountIdOf(parsed: Parsed): number | undefined {
  const value = stringOf(parsed.values.account);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--account must be an account id (a whole number), not "${value}"`);
  return Number(value);
}

export const deliveriesListCommand: Command = {
  name: 'deliveries list',
  spec: {
    usage: 'deliveries list --account ID [--failed] [--all]',
    summary: "Lists an account's webhook attempts, latest first (the operator route: needs --admin-token).",
    options: {
      account: { type: 'string', help: 'the account id' },
      failed: { type: 'boolean', help: 'only the failed attempts' },
      all: { type: 'boolean', help: 'every page, not just the first' },
    },
  },
  async run({ parsed, connection, out }) {
    if (parsed.positionals.length) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}"`);
    const accountId = accountIdOf(parsed);
    if (accountId === undefined) throw new UsageError('Give --account ID: whose deliveries to list');
    const admin = adminClient(connection());
    const list = admin.webhookDeliveries.list(accountId, { ...(parsed.values.failed ? { status: 'failed' as const } : {}), pageSize: 100 });
    const rows = parsed.values.all ? await list.toArray() : (await list).data;
    out.result(
      { data: rows },
      rows.length ? rows.map((d) => `${d.sentAt}  ${d.event.padEnd(12)}  ${d.status.padEnd(9)}  ${String(d.statusCode ?? d.error ?? '').padEnd(6)}  ${d.eventId ?? ''}  ${d.url}`) : 'No deliveries.',
    );
  },
};

export const deliveriesReplayCommand: Command = {
  name: 'deliveries replay',
  spec: {
    usage: 'deliveries replay --since TIME [--status failed|all] [--type EVENT] [--account ID]',
    summary: 'Queues again the webhook deliveries of the events since TIME (POST /api/webhook-deliveries/replay).',
    details: ['With --account and --admin-token, the operator route for that account (/admin/accounts/{id}/webhook-deliveries/replay).'],
    options: {
      since: { type: 'string', help: 'ISO 8601 date or date-time: the events created at or after it' },
      status: { type: 'string', help: 'failed (default): the deliveries that failed for good; all: every finished one' },
      type: { type: 'string', help: `only this event type (${EVENT_TYPES.join(', ')})` },
      account: { type: 'string', help: 'the account id (operator route)' },
    },
  },
  async run({ parsed, connection, out }) {
    if (parsed.positionals.length) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}"`);
    const since = stringOf(parsed.values.since);
    if (!since) throw new UsageError('Give --since TIME (ISO 8601, e.g. 2026-11-27T10:00:00Z)');
    const status = stringOf(parsed.values.status) ?? 'failed';
    if (status !== 'failed' && status !== 'all') throw new UsageError(`--status is failed or all, not "${status}"`);
    const type = stringOf(parsed.values.type);
    if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type)) throw new UsageError(`Unknown event type "${type}": ${EVENT_TYPES.join(', ')}`);
    const body = { since, status: status as 'failed' | 'all', ...(type ? { type: type as (typeof EVENT_TYPES)[number] } : {}) };
    const accountId = accountIdOf(parsed);
    const answer = accountId === undefined ? await accountClient(connection()).webhookDeliveries.replay(body) : await adminClient(connection()).webhookDeliveries.replay(accountId, body);
    out.result(answer, `Queued ${answer.queued} deliver${answer.queued === 1 ? 'y' : 'ies'} again.`);
  },
};
