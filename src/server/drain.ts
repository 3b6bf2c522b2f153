import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** How long requests under way get to finish once the server stops; what is left then is cut. */
const DRAIN_TIMEOUT_MS = 10_000;

/** An event stream never ends by itself: asked for by EventSource, or one of the API's `/stream` paths. */
const isEventStream = (req: IncomingMessage) =>
  (req.headers.accept ?? '').includes('text/event-stream') || /\/stream(?:\?|$)/.test(req.url ?? '');

/**
 * The HTTP server, able to stop without failing a request (docs/decisions/171): on `drain`, the
 * instance answers unready, takes no new connection, closes each connection after its answer (so a
 * proxy stops sending on it), lets the requests under way finish, and cuts the event streams at
 * once, which browsers reopen (through nginx, on another instance) from the last event they saw.
 */
export function drainableServer() {
  let draining = false;
  const streams = new Set<IncomingMessage>();
  // Runs before the site's and the API's listener, which the caller adds with server.on('request').
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    if (isEventStream(req)) {
      streams.add(req);
      res.once('close', () => streams.delete(req));
    }
  });
  return {
    server,
    draining: () => draining,
    drain(closed: () => void) {
      if (draining) return;
      draining = true;
      server.close(closed);
      server.closeIdleConnections();
      for (const req of streams) req.socket.destroy();
      setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
    },
  };
}
