import net from 'node:net';

/**
 * A TCP proxy to PostgreSQL that counts the statements its clients send: simple-protocol queries
 * ('Q') and extended-protocol executions ('E'), read from the wire, so the service's own code is
 * measured unchanged. Each connection's first message (the startup packet) has no type byte.
 */
export async function startStatementCounter(target: { host: string; port: number }) {
  let statements = 0;
  /** The text of every statement executed, in order (extended protocol: Parse -> Bind -> Execute). */
  const texts: string[] = [];
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    sockets.add(client).add(server);
    let buffer = Buffer.alloc(0);
    let started = false;
    // Per connection: prepared statement name -> text, portal name -> statement name.
    const prepared = new Map<string, string>();
    const portals = new Map<string, string>();
    client.on('data', (chunk) => {
      server.write(chunk);
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const header = started ? 5 : 4;
        if (buffer.length < header) break;
        const length = started ? buffer.readInt32BE(1) + 1 : buffer.readInt32BE(0);
        if (buffer.length < length) break;
        if (started && (buffer[0] === 0x51 || buffer[0] === 0x45)) statements += 1; // 'Q', 'E'
        if (started) {
          const body = buffer.subarray(5, length);
          const [first = '', second = ''] = cStrings(body, 2);
          if (buffer[0] === 0x51) texts.push(first); // Query: its text
          else if (buffer[0] === 0x50) prepared.set(first, second); // Parse: name, text
          else if (buffer[0] === 0x42) portals.set(first, second); // Bind: portal, statement
          else if (buffer[0] === 0x45) texts.push(prepared.get(portals.get(first) ?? '') ?? '?'); // Execute: portal
        }
        started = true;
        buffer = buffer.subarray(length);
      }
    });
    server.on('data', (chunk) => client.write(chunk));
    const close = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on('error', close).on('close', close);
    server.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    get statements() {
      return statements;
    },
    /** How many statements executed so far match `pattern` (their SQL text). */
    executed(pattern: RegExp) {
      return texts.filter((text) => pattern.test(text)).length;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** The first `count` NUL-terminated strings of a message body. */
function cStrings(body: Buffer, count: number): string[] {
  const out: string[] = [];
  let at = 0;
  while (out.length < count && at < body.length) {
    const end = body.indexOf(0, at);
    if (end === -1) break;
    out.push(body.toString('utf8', at, end));
    at = end + 1;
  }
  return out;
}
