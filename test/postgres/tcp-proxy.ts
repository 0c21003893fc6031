import net from 'node:net';

/**
 * A TCP proxy to PostgreSQL started inside a test, to fake what the network and the server do:
 * `dropAll` closes every connection (a restart, a failover, a reset), `partition` keeps them open
 * but forwards nothing either way (a half-open network), `heal` forwards again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const pairs = new Set<{ client: net.Socket; server: net.Socket }>();
  let partitioned = false;
  let refusing = false;

  const proxy = net.createServer((client) => {
    if (refusing) return client.destroy();
    const server = net.connect(target.port, target.host);
    const pair = { client, server };
    pairs.add(pair);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (!partitioned) to.write(chunk);
      });
    forward(client, server);
    forward(server, client);
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
