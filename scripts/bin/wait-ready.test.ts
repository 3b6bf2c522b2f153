import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { waitReady } from './wait-ready.ts';

it('waits until the instance answers ready, and gives up when it never does', async () => {
  let asked = 0;
  const server = createServer((_, response) => {
    asked++;
    response.writeHead(asked < 3 ? 503 : 200).end();
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health/ready`;
  try {
    expect(await waitReady(url, 10)).toBe(true);
    expect(asked).toBe(3);
  } finally {
    server.close();
  }
  // Nobody listens there any more.
  expect(await waitReady(url, 0.6)).toBe(false);
});
