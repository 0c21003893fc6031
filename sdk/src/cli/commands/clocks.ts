import { stringOf, UsageError, type Parsed } from '../args.ts';
import type { Command } from '../command.ts';
import { accountClient, adminClient, type Connection } from '../connection.ts';
import type { TestClock, TestClockResources } from '../../test-clocks.ts';

/**
 * `pix clocks ...`: per-account test clocks (sandbox mode only). With --admin-token (or a profile
 * that has one) any account's clocks; otherwise the account's own, with its credentials.
 */
function clocksOf(connection: Connection): TestClockResources {
  return connection.adminToken ? adminClient(connection).clocks : accountClient(connection).clocks;
}

function instantOf(parsed: Parsed, name: string): string {
  const value = stringOf(parsed.values[name]);
  if (value === undefined) throw new UsageError(`Give --${name} TIME (ISO 8601 with a zone, e.g. 2027-01-04T15:00:00Z)`);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) || Number.isNaN(Date.parse(value))) throw new UsageError(`--${name} must be an ISO 8601 date-time, not "${value}"`);
  return value;
}

function accountIdsOf(parsed: Parsed): number[] {
  const values = parsed.values.account;
  const list = (Array.isArray(values) ? values : typeof values === 'string' ? [values] : []).flatMap((v) => v.split(','));
  if (list.length === 0) throw new UsageError('Give --account ID (repeat it, or separate ids by commas): the accounts on the clock');
  return list.map((v) => {
    const id = v.trim();
    if (!/^\d+$/.test(id) || Number(id) < 1) throw new UsageError(`--account must be an account id (a whole number), not "${id}"`);
    return Number(id);
  });
}

/** The one clock id a command takes. */
function idOf(parsed: Parsed): string {
  const [id, ...rest] = parsed.positionals;
  if (!id) throw new UsageError('Give the test clock id');
  if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}"`);
  return id;
}

const line = (c: TestClock) => `${c.id}  ${c.status.padEnd(9)}  ${c.frozenTime}  accounts ${c.accountIds.join(',')}${c.name ? `  ${c.name}` : ''}`;

export const clocksCreateCommand: Command = {
  name: 'clocks create',
  spec: {
    usage: 'clocks create --frozen-time TIME --account ID [--account ID ...] [--name NAME]',
    summary: 'Creates a test clock: the accounts on it see its time in every time rule (POST /sandbox/test-clocks).',
    details: ['An account is on one clock at most. With an account\'s credentials, --account is that account\'s own id.'],
    options: {
      'frozen-time': { type: 'string', help: 'where the clock stands (ISO 8601 date-time)' },
      account: { type: 'string', multiple: true, help: 'an account on the clock (repeat it, or ids separated by commas)' },
      name: { type: 'string', help: 'a name for people' },
    },
  },
  async run({ parsed, connection, out }) {
    if (parsed.positionals.length) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}"`);
    const frozenTime = instantOf(parsed, 'frozen-time');
    const accountIds = accountIdsOf(parsed);
    const name = stringOf(parsed.values.name);
    const clock = await clocksOf(connection()).create({ frozenTime, accountIds, ...(name !== undefined ? { name } : {}) });
    out.result(clock, line(clock));
  },
};

export const clocksAdvanceCommand: Command = {
  name: 'clocks advance',
  spec: {
    usage: 'clocks advance ID --to TIME [--no-wait]',
    summary: 'Moves a test clock forward; what falls due for its accounts happens in order (POST /sandbox/test-clocks/{id}/advance).',
    details: ['Waits until the clock is ready again and prints it; --no-wait prints it while it is still advancing.'],
    options: {
      to: { type: 'string', help: "the new time (ISO 8601 date-time, after the clock's)" },
      'no-wait': { type: 'boolean', help: 'do not wait for the clock to be ready' },
    },
  },
  async run({ parsed, connection, out, signal }) {
    const id = idOf(parsed);
    const to = instantOf(parsed, 'to');
    const clocks = clocksOf(connection());
    const started = await clocks.advance(id, { to });
    const clock = parsed.values['no-wait'] ? started : await clocks.waitUntilReady(id, { signal });
    out.result(clock, line(clock));
  },
};

export const clocksGetCommand: Command = {
  name: 'clocks get',
  spec: { usage: 'clocks get ID', summary: 'Shows a test clock: its time, status and accounts (GET /sandbox/test-clocks/{id}).' },
  async run({ parsed, connection, out }) {
    const clock = await clocksOf(connection()).get(idOf(parsed));
    out.result(clock, line(clock));
  },
};

export const clocksListCommand: Command = {
  name: 'clocks list',
  spec: {
    usage: 'clocks list [--all]',
    summary: 'Lists test clocks, newest first: all with --admin-token, the account\'s own otherwise (GET /sandbox/test-clocks).',
    options: { all: { type: 'boolean', help: 'every page, not just the first' } },
  },
  async run({ parsed, connection, out }) {
    if (parsed.positionals.length) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}"`);
    const list = clocksOf(connection()).list({ pageSize: 100 });
    const rows = parsed.values.all ? await list.toArray() : (await list).data;
    out.result({ data: rows }, rows.length ? rows.map(line) : 'No test clocks.');
  },
};

export const clocksDeleteCommand: Command = {
  name: 'clocks delete',
  spec: { usage: 'clocks delete ID', summary: 'Deletes a test clock; its accounts return to the service clock (DELETE /sandbox/test-clocks/{id}).' },
  async run({ parsed, connection, out }) {
    const id = idOf(parsed);
    await clocksOf(connection()).delete(id);
    out.result({ id, deleted: true }, `Deleted test clock ${id}.`);
  },
};

export const clocksCommands: Command[] = [clocksCreateCommand, clocksAdvanceCommand, clocksGetCommand, clocksListCommand, clocksDeleteCommand];
