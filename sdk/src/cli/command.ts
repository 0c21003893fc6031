import type { CommandSpec, Parsed } from './args.ts';
import type { Connection } from './connection.ts';
import type { Output } from './output.ts';

export interface CommandContext {
  parsed: Parsed;
  /** The connection options resolved (option, environment, profile); `creating`: the profile may not exist yet. */
  connection(creating?: boolean): Connection;
  out: Output;
  /** Aborted on Ctrl-C (SIGINT) or SIGTERM: long-running commands stop cleanly and exit 0. */
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
}

export interface Command {
  /** The words that name it: `trigger`, `events list`, ... */
  name: string;
  spec: CommandSpec;
  run(context: CommandContext): Promise<void>;
}
