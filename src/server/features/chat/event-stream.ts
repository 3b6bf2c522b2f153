import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import { CHAT_EVENTS, type OperatorPresence } from '#common/chat-api.ts';
import type { StreamSink } from './chat-hub.ts';

export interface StreamEvent {
  event: string;
  data: string;
  /** Position in the chat's sequence; absent for state that is sent again on every connection. */
  id?: number;
}

/** What one read of the database gives a stream: events after its position, and its new position. */
export interface StreamBatch {
  events: StreamEvent[];
  cursor: number;
  /** More is waiting: read again at once. */
  more?: boolean;
  /** The stream has nothing more to show (the conversation ended): close it once sent. */
  end?: boolean;
}

export interface EventStreamOptions {
  /** Where the browser stands: its Last-Event-ID, or 0 for everything. */
  cursor: number;
  read(cursor: number): Promise<StreamBatch>;
  /** The presence event to send for this list of operators; null to send nothing. */
  presence(operators: OperatorPresence[]): StreamEvent | null;
  /** Puts the stream in the hub; returns how to take it out. */
  register(sink: StreamSink): () => void;
  /** The presence known when the stream opens, if any. */
  operators: OperatorPresence[] | null;
  /** A stream ends after this long and the browser reconnects (with its Last-Event-ID). */
  lifetimeMs: number;
  heartbeatMs: number;
  /** Runs once the stream has ended, however it ended. */
  onClose?(): Promise<void>;
}

/** How long a browser waits before reconnecting after a stream ends or drops. */
const RETRY_MS = 2_000;

/**
 * The position a browser says it has seen: `Last-Event-ID` when EventSource reconnects by itself,
 * `?after=` when the page opens a stream after reading the conversation. Junk counts as nothing.
 */
export function requestedCursor(c: Context): number | null {
  const raw = c.req.header('Last-Event-ID') ?? c.req.query('after');
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) return null;
  return Number(raw);
}

/**
 * One open stream: it reads what changed after its position whenever the hub wakes it, one read at
 * a time (a wake during a read makes one more read), and writes each change as an event with its
 * position as id. A write that has not gone through by the next heartbeat means the browser stopped
 * reading: the stream is dropped rather than held in memory.
 */
class Sink implements StreamSink {
  /** Busy from the start: a wake before the first catch-up only asks that one to read once more. */
  private busy = true;
  private again = false;
  private closed = false;
  private writingSince = 0;
  private cursor: number;
  private readonly stream: SSEStreamingApi;
  private readonly options: EventStreamOptions;
  readonly done: Promise<void>;
  private finish: () => void = () => {};

  constructor(stream: SSEStreamingApi, options: EventStreamOptions) {
    this.stream = stream;
    this.options = options;
    this.cursor = options.cursor;
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  wake(): void {
    if (this.closed) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    void this.drain(false);
  }

  /** Sends what was missed; the first time, then a `ready` event with where the stream stands. */
  async drain(first: boolean): Promise<void> {
    this.busy = true;
    try {
      do {
        this.again = false;
        const batch = await this.options.read(this.cursor);
        for (const event of batch.events) await this.send(event);
        this.cursor = Math.max(this.cursor, batch.cursor);
        if (batch.end) return this.close();
        if (batch.more) this.again = true;
      } while (this.again && !this.closed);
      if (first) {
        await this.send({ event: CHAT_EVENTS.ready, id: this.cursor, data: JSON.stringify({ cursor: this.cursor }) });
      }
    } catch (error) {
      // The database is unreachable: the browser reconnects and catches up from its last id.
      console.error('Chat stream could not read:', (error as Error).message);
      this.close();
    } finally {
      this.busy = false;
    }
  }

  presence(operators: OperatorPresence[]): void {
    const event = this.options.presence(operators);
    if (event && !this.closed) void this.send(event);
  }

  ping(): void {
    if (this.closed) return;
    if (this.writingSince && Date.now() - this.writingSince > this.options.heartbeatMs) {
      this.close(true);
      return;
    }
    if (!this.writingSince) void this.write(': ping\n\n');
  }

  async send(event: StreamEvent): Promise<void> {
    if (this.closed) return;
    await this.write(
      `event: ${event.event}\n${event.id === undefined ? '' : `id: ${event.id}\n`}data: ${event.data}\n\n`,
    );
  }

  private async write(text: string): Promise<void> {
    this.writingSince ||= Date.now();
    try {
      await this.stream.write(text);
    } finally {
      this.writingSince = 0;
    }
  }

  /** Ends the stream; `stalled` drops it without waiting for a browser that stopped reading. */
  close(stalled = false): void {
    if (this.closed) return;
    this.closed = true;
    if (stalled) this.stream.abort();
    this.finish();
  }
}

/**
 * Answers with a server-sent event stream: `retry`, the presence, what the browser missed, `ready`,
 * then every change as it happens, with heartbeats, until the browser leaves or the lifetime ends.
 */
export function serveEventStream(c: Context, options: EventStreamOptions): Response {
  const response = streamSSE(c, async (stream) => {
    const sink = new Sink(stream, options);
    const unregister = options.register(sink);
    stream.onAbort(() => sink.close());
    c.req.raw.signal.addEventListener('abort', () => sink.close(), { once: true });
    const lifetime = setTimeout(() => sink.close(), options.lifetimeMs);
    try {
      await stream.write(`retry: ${RETRY_MS}\n\n`);
      const presence = options.operators && options.presence(options.operators);
      if (presence) await sink.send(presence);
      await sink.drain(true);
      await sink.done;
    } finally {
      clearTimeout(lifetime);
      unregister();
      await options.onClose?.().catch((error: Error) => console.error('Chat stream clean-up failed:', error.message));
    }
  });
  // Proxies must pass each event on at once (nginx buffers unless told), and nothing may store it.
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('X-Accel-Buffering', 'no');
  // Hop-by-hop headers: Node adds what HTTP/1.1 needs, and an HTTP/2 client must never see them.
  response.headers.delete('Connection');
  response.headers.delete('Transfer-Encoding');
  return response;
}
