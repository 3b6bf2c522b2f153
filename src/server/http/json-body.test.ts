import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { maxBody } from './json-body.ts';

const LIMIT = 16;

// Over a real socket: how the body arrives (a declared length or chunks) is what the limit judges.
describe('maxBody', () => {
  const app = new Hono();
  app.onError((error, c) =>
    error instanceof ApiError ? c.json({ code: error.code }, error.status) : c.json({ code: 'CRASH' }, 500),
  );
  app.use(maxBody(LIMIT, 'MESSAGE_TOO_LONG'));
  app.all('/', async (c) => c.json({ read: await c.req.text() }));
  const server = createServer(getRequestListener(app.fetch));
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Sends `chunks` as one body with its length declared, or chunked when `declared` is false. */
  const send = (chunks: string[], declared: boolean, method = 'POST') =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const length = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
      const req = request(
        { host: '127.0.0.1', port, method, path: '/', headers: declared ? { 'Content-Length': length } : {} },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });

  it('lets a body of the limit through, read whole, with its length declared or in chunks', async () => {
    const body = 'x'.repeat(LIMIT);
    expect(await send([body], true)).toEqual({ status: 200, body: { read: body } });
    expect(await send([body.slice(0, 5), body.slice(5)], false)).toEqual({ status: 200, body: { read: body } });
  });

  it('refuses one byte more with 413 and the code, whether declared or counted in chunks', async () => {
    const body = 'x'.repeat(LIMIT + 1);
    expect(await send([body], true)).toEqual({ status: 413, body: { code: 'MESSAGE_TOO_LONG' } });
    expect(await send([body.slice(0, 5), body.slice(5)], false)).toEqual({
      status: 413,
      body: { code: 'MESSAGE_TOO_LONG' },
    });
  });

  it('does not read a GET', async () => {
    expect(await send([], false, 'GET')).toEqual({ status: 200, body: { read: '' } });
  });
});
