import { PixApiError, PixNetworkError } from '../errors.ts';
import { UsageError } from './args.ts';

/** Where a command writes: JSON documents with --json, lines for people otherwise. */
export interface Output {
  json: boolean;
  /** One result: `human` lines for people, `data` as the JSON document. */
  result(data: unknown, human: string | string[]): void;
  /** A line for people only (progress, hints): on stderr with --json, so stdout stays parseable. */
  note(line: string): void;
}

export function output(json: boolean, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Output {
  return {
    json,
    result(data, human) {
      if (json) out.write(`${JSON.stringify(data)}\n`);
      else out.write(`${(Array.isArray(human) ? human : [human]).join('\n')}\n`);
    },
    note(line) {
      (json ? err : out).write(`${line}\n`);
    },
  };
}

/**
 * The exit code and message of a failure: 2 for a usage error, 1 for what the API (or the network)
 * refused, with its code and message; a stack trace only for what no one expected (a bug).
 */
export function reportFailure(error: unknown, json: boolean, err: NodeJS.WritableStream = process.stderr, out: NodeJS.WritableStream = process.stdout): number {
  if (error instanceof UsageError) {
    if (json) out.write(`${JSON.stringify({ error: { code: 'USAGE', message: error.message } })}\n`);
    err.write(`pix: ${error.message}\nRun pix --help, or pix <command> --help.\n`);
    return 2;
  }
  if (error instanceof PixApiError) {
    const body = { status: error.status, code: error.code, message: error.message, ...(error.requestId ? { requestId: error.requestId } : {}), ...(error.details ? { details: error.details } : {}) };
    if (json) out.write(`${JSON.stringify({ error: body })}\n`);
    err.write(`pix: ${error.status} ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}\n`);
    return 1;
  }
  if (error instanceof PixNetworkError) {
    if (json) out.write(`${JSON.stringify({ error: { code: 'NETWORK_ERROR', message: error.message } })}\n`);
    err.write(`pix: NETWORK_ERROR: ${error.message}\n`);
    return 1;
  }
  err.write(`pix: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
