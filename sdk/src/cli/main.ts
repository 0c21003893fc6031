import { helpOf, parse, UsageError } from './args.ts';
import type { Command } from './command.ts';
import { clocksCommands } from './commands/clocks.ts';
import { deliveriesListCommand, deliveriesReplayCommand } from './commands/deliveries.ts';
import { eventsGetCommand, eventsListCommand, eventsResendCommand } from './commands/events.ts';
import { listenCommand } from './commands/listen.ts';
import { loginCommand } from './commands/login.ts';
import { triggerCommand } from './commands/trigger.ts';
import { connectionOf } from './connection.ts';
import { output, reportFailure } from './output.ts';

/** Every command, by the words that name it. */
const COMMANDS: Command[] = [
  loginCommand,
  listenCommand,
  triggerCommand,
  eventsListCommand,
  eventsGetCommand,
  eventsResendCommand,
  deliveriesListCommand,
  deliveriesReplayCommand,
  ...clocksCommands,
];

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: pix <command> [options]',
    '',
    'The pix-account-service command line: talks to a running service over its public API.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.spec.summary.split(/(?<=\.) /)[0]}`),
    '',
    'Every command takes --base-url, --client-id, --client-secret, --cert, --key, --admin-token, --profile',
    '(or PIX_BASE_URL, PIX_CLIENT_ID, PIX_CLIENT_SECRET, PIX_CERT_FILE, PIX_KEY_FILE, PIX_ADMIN_TOKEN, PIX_PROFILE),',
    '--json and --help. Exit codes: 0 success, 1 API error, 2 usage error. pix <command> --help for more.',
  ].join('\n');
}

/** Finds the command named by the first words of argv (the longest name that matches). */
function commandOf(argv: string[]): { command: Command; rest: string[] } | undefined {
  const words = argv.filter((a) => !a.startsWith('-'));
  const byLength = [...COMMANDS].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const command of byLength) {
    const parts = command.name.split(' ');
    if (parts.every((part, i) => words[i] === part)) {
      const rest = [...argv];
      for (const part of parts) rest.splice(rest.indexOf(part), 1);
      return { command, rest };
    }
  }
  return undefined;
}

/** Runs `pix` with these arguments; answers the exit code (0 success, 1 API error, 2 usage error). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const json = argv.includes('--json');
  try {
    const found = commandOf(argv);
    if (!found) {
      if (argv.length === 0 || argv.every((a) => a === '--help' || a === '-h' || a === '--json')) {
        process.stdout.write(`${topHelp()}\n`);
        return argv.length === 0 ? 2 : 0;
      }
      const group = argv.find((a) => !a.startsWith('-'));
      const sub = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
      throw new UsageError(sub.length ? `${group} takes one of: ${sub.map((c) => c.name.split(' ')[1]).join(', ')}` : `Unknown command "${group}"`);
    }
    const { command, rest } = found;
    const parsed = parse(command.spec, rest);
    if (parsed.values.help) {
      process.stdout.write(`${helpOf(command.spec)}\n`);
      return 0;
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      await command.run({ parsed, connection: (creating) => connectionOf(parsed.values, env, creating), out: output(json), signal: controller.signal, env });
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    return 0;
  } catch (error) {
    return reportFailure(error, json);
  }
}

// No top-level await: the module compiles into the CommonJS build too.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
