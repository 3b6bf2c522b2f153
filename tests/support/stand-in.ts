import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface StandIn {
  url: string;
  received: ReceivedRequest[];
  /** Replaces how the stand-in answers, for the next requests. */
  answer(handler: (request: ReceivedRequest, response: ServerResponse) => void): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback standing in for an upstream (PostHog, an OTLP collector) in tests:
 * it records every request and answers as the test says.
 */
export async function startStandIn(): Promise<StandIn> {
  const received: ReceivedRequest[] = [];
  let handler = (_: ReceivedRequest, response: ServerResponse) => {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":1}');
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (next) => {
      handler = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
