import net from 'node:net';

/** The protocol's ReadyForQuery message header: 'Z' and its length (5). */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5]);

/**
 * Whether a server's answer (whole protocol messages, from the first after the query to ReadyForQuery)
 * holds a DataRow ('D'): a statement that returned at least one row.
 */
function carriesRows(answer: Buffer): boolean {
  for (let at = 0; at + 5 <= answer.length; at += 1 + answer.readUInt32BE(at + 1)) {
    if (answer[at] === 0x44) return true;
  }
  return false;
}

/**
 * A TCP proxy to PostgreSQL started inside a test, to fake what the network and the server do:
 * `dropAll` closes every connection (a restart, a failover, a reset), `partition` keeps them open
 * but forwards nothing either way (a half-open network), `heal` forwards again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const pairs = new Set<{ client: net.Socket; server: net.Socket }>();
  let partitioned = false;
  let refusing = false;
  /** Armed by `loseAnswerTo`: the marker to watch for, and what to call once its answer was lost. */
  let losing: { marker: string; withRows: boolean; lost: () => void } | undefined;

  const proxy = net.createServer((client) => {
    if (refusing) return client.destroy();
    const server = net.connect(target.port, target.host);
    const pair = { client, server };
    pairs.add(pair);
    /** Set on this pair once the armed marker went through: the server's next answer is dropped with the connection. */
    let watching: { marker: string; withRows: boolean; lost: () => void; answer: Buffer[] } | undefined;
    client.on('data', (chunk: Buffer) => {
      if (partitioned) return;
      if (losing && chunk.includes(losing.marker)) {
        watching = { ...losing, answer: [] };
        losing = undefined;
      }
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      if (partitioned) return;
      if (watching) {
        // Held back until the server says ReadyForQuery ('Z', length 5): the statement finished
        // (outside a transaction: committed). The client never hears it: its connection resets.
        watching.answer.push(chunk);
        if (!chunk.includes(READY_FOR_QUERY)) return;
        const answer = Buffer.concat(watching.answer);
        const { answer: _, ...armed } = watching;
        watching = undefined;
        if (armed.withRows && !carriesRows(answer)) {
          // An answer with no row (a claim that found nothing due) goes through; the next one is watched.
          losing = armed;
          client.write(answer);
          return;
        }
        client.destroy();
        server.destroy();
        armed.lost();
        return;
      }
      client.write(chunk);
    });
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('error', close).on('close', close);
    server.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as net.AddressInfo).port;

  return {
    port,
    /** Connections currently open through the proxy. */
    get connections() {
      return pairs.size;
    },
    /** Every connection reset, as a database restart does. */
    dropAll() {
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      pairs.clear();
    },
    /** Bytes are swallowed both ways; sockets stay open, and new ones connect but hear nothing. */
    partition() {
      partitioned = true;
    },
    heal() {
      partitioned = false;
      refusing = false;
    },
    /**
     * The next statement whose bytes carry `marker` (its text, or a prepared statement's name) runs
     * on the server, and its answer is lost: the connection resets as the answer comes back, as
     * when a database restarts just after committing. Resolves once that happened.
     */
    loseAnswerTo(marker: string, options: { withRows?: boolean } = {}): Promise<void> {
      return new Promise<void>((resolve) => (losing = { marker, withRows: options.withRows ?? false, lost: resolve }));
    },
    /** New connections are refused (the server is down). */
    refuse() {
      refusing = true;
    },
    async close() {
      this.dropAll();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
