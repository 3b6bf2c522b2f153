import net from 'node:net';

export interface TcpProxy {
  /** host:port to connect to instead of the target. */
  port: number;
  /** Every connection, open and new, stops passing data in either direction: a database that hangs. */
  hang(): void;
  /** Every connection is dropped and new ones are refused: a database that is down. */
  cut(): void;
  /** Passes data again, for new connections (a hung connection stays hung, as it would). */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay on loopback between a client and a real server (PostgreSQL in the tests), that can
 * make the server look hung or down without touching the server itself, which other tests share.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: 'pass' | 'hang' | 'cut' = 'pass';
  const pairs = new Set<{ client: net.Socket; server: net.Socket }>();
  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair = { client, server: upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    if (mode === 'hang') return;
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    hang() {
      mode = 'hang';
      for (const { client, server: upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    cut() {
      mode = 'cut';
      for (const { client, server: upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    restore() {
      mode = 'pass';
    },
    close: () =>
      new Promise((resolve) => {
        for (const { client, server: upstream } of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
