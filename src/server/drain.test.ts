import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { drainableServer } from './drain.ts';

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

/** A server whose `/slow` answers when `finish` is called and whose `/api/chat/stream` never ends by itself. */
async function started() {
  const drainable = drainableServer();
  let finish = () => {};
  const slowArrived = new Promise<void>((arrived) => {
    drainable.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url === '/slow') {
        arrived();
        finish = () => res.end('done');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('retry: 1000\n\n');
    });
  });
  servers.push(drainable.server);
  await new Promise<void>((resolve) => drainable.server.listen(0, '127.0.0.1', resolve));
  const { port } = drainable.server.address() as AddressInfo;
  return { ...drainable, port, slowArrived, finish: () => finish() };
}

const get = (port: number, path: string) =>
  new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, resolve).once('error', reject);
  });

it('on drain: refuses new connections, lets a request under way finish with Connection: close, and cuts event streams', async () => {
  const server = await started();
  const stream = await get(server.port, '/api/chat/stream');
  const streamClosed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  stream.resume();
  const slow = get(server.port, '/slow');
  await server.slowArrived;

  let closed = false;
  expect(server.draining()).toBe(false);
  server.drain(() => {
    closed = true;
  });
  expect(server.draining()).toBe(true);
  // The stream is cut at once, for the browser to reopen elsewhere.
  await streamClosed;
  // Nothing new is taken.
  await expect(get(server.port, '/slow')).rejects.toThrow(/ECONNREFUSED/);
  // What was under way finishes, and its connection is not kept.
  expect(closed).toBe(false);
  server.finish();
  const answer = await slow;
  expect(answer.statusCode).toBe(200);
  expect(answer.headers.connection).toBe('close');
  answer.resume();
  await new Promise((resolve) => answer.once('end', resolve));
  await expect.poll(() => closed).toBe(true);
});
