import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line the command cannot run: exit code 2, the message and where the help is. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The connection options every command takes, each with its environment variable (decisions 8). */
export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string', env: 'PIX_BASE_URL', help: 'the service URL (default http://127.0.0.1:3000)' },
  'client-id': { type: 'string', env: 'PIX_CLIENT_ID', help: "the account's clientId" },
  'client-secret': { type: 'string', env: 'PIX_CLIENT_SECRET', help: "the account's client secret" },
  cert: { type: 'string', env: 'PIX_CERT_FILE', help: 'the client certificate (PEM file)' },
  key: { type: 'string', env: 'PIX_KEY_FILE', help: "the certificate's private key (PEM file): mutual TLS; without it the certificate goes in X-SSL-Client-Cert" },
  'admin-token': { type: 'string', env: 'PIX_ADMIN_TOKEN', help: "the operator token (the service's ADMIN_TOKEN)" },
  profile: { type: 'string', env: 'PIX_PROFILE', help: 'the saved profile to use (default "default")' },
} as const;

const COMMON: Options = {
  ...Object.fromEntries(Object.entries(CONNECTION_OPTIONS).map(([name, o]) => [name, { type: o.type }])),
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export interface CommandSpec {
  /** `pix <usage>` */
  usage: string;
  summary: string;
  options?: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; help: string; short?: string }>;
  /** More lines for --help (examples, the event types...). */
  details?: string[];
}

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Parses a command's arguments (node:util parseArgs, strict): an unknown option or a missing value is a UsageError. */
export function parse(spec: CommandSpec, argv: string[]): Parsed {
  const options: Options = { ...COMMON };
  for (const [name, o] of Object.entries(spec.options ?? {})) {
    options[name] = { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) };
  }
  try {
    const { values, positionals } = parseArgs({ args: joinDashValues(argv, options), allowPositionals: true, options, strict: true });
    return { values: values as Parsed['values'], positionals };
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
}

/**
 * `--name value` as `--name=value` when `name` takes a value and `value` starts with a dash: a client
 * secret (base64url) or a token may (1 in 64), and parseArgs refuses such a value given apart
 * ("argument is ambiguous"). A value that is itself one of the options (`--client-secret --json`)
 * is left apart, so a forgotten value is still a usage error.
 */
function joinDashValues(argv: string[], options: Options): string[] {
  const takesValue = (arg: string) => arg.startsWith('--') && !arg.includes('=') && options[arg.slice(2)]?.type === 'string';
  const isOption = (arg: string) => {
    if (arg === '--') return true;
    if (arg.startsWith('--')) return Object.hasOwn(options, arg.slice(2).split('=')[0]!);
    return Object.values(options).some((o) => o.short !== undefined && arg === `-${o.short}`);
  };
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') {
      joined.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (takesValue(arg) && next !== undefined && next.startsWith('-') && !isOption(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/** The --help text of a command. */
export function helpOf(spec: CommandSpec): string {
  const rows = (entries: Array<[string, string]>) => {
    const width = Math.max(...entries.map(([left]) => left.length));
    return entries.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
  };
  const own = Object.entries(spec.options ?? {}).map(([name, o]): [string, string] => [`--${name}${o.type === 'string' ? ' VALUE' : ''}`, o.help]);
  const connection = Object.entries(CONNECTION_OPTIONS).map(([name, o]): [string, string] => [`--${name} VALUE`, `${o.help} [${o.env}]`]);
  return [
    `Usage: pix ${spec.usage}`,
    '',
    spec.summary,
    ...(spec.details ? ['', ...spec.details] : []),
    ...(own.length ? ['', 'Options:', ...rows(own)] : []),
    '',
    'Connection options (every command):',
    ...rows([...connection, ['--json', 'machine-readable output (JSON)'], ['--help', 'this help']]),
  ].join('\n');
}

export const stringOf = (value: Parsed['values'][string]): string | undefined => (typeof value === 'string' ? value : undefined);
