import type { Context } from 'hono';
import { CHAT_EVENTS, type OperatorPresence } from '#common/chat-api.ts';
import { TYPING_EVENT } from '#common/chat-hours.ts';
import { errorFields, log } from '#server/platform/log.ts';
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
  /**
   * Whether whoever opened the stream may still see it (their session and role, as when it
   * opened); asked before the next read whenever the hub says it may have changed. A stream
   * opened without a session has none.
   */
  allowed?(): Promise<boolean>;
  /** The presence known when the stream opens, if any. */
  operators: OperatorPresence[] | null;
  /** A stream ends after this long and the browser reconnects (with its Last-Event-ID). */
  lifetimeMs: number;
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

/** A browser this many events behind (its connection not draining them) is dropped at the next heartbeat. */
const MAX_QUEUED = 256;
const encoder = new TextEncoder();

/**
 * One open stream: it reads what changed after its position whenever the hub wakes it, one read at
 * a time (a wake during a read makes one more read), and writes each change as an event with its
 * position as id. Writes only queue: a browser that stopped reading is dropped at the next
 * heartbeat rather than held in memory. When the hub says the session or role it was opened with
 * may have changed, its next read first asks `allowed`, and it ends without showing more if not.
 */
class Sink implements StreamSink {
  /** Busy from the start: a wake before the first catch-up only asks that one to read once more. */
  private busy = true;
  private again = false;
  /** The hub asked for `allowed` to be checked before the next read. */
  private checkDue = false;
  private closed = false;
  private cursor: number;
  private lifetime: NodeJS.Timeout | undefined;
  private unregister: () => void = () => {};
  private readonly controller: ReadableStreamDefaultController<Uint8Array>;
  private readonly options: EventStreamOptions;

  constructor(controller: ReadableStreamDefaultController<Uint8Array>, options: EventStreamOptions) {
    this.controller = controller;
    this.options = options;
    this.cursor = options.cursor;
    // Access was checked before the stream was in the hub: a session ended in between was
    // announced to nobody, so the first read checks again.
    this.checkDue = options.allowed !== undefined;
  }

  /** `retry`, the presence, what the browser missed, `ready`; then it waits for changes. */
  start(): void {
    this.unregister = this.options.register(this);
    this.lifetime = setTimeout(() => this.close(), this.options.lifetimeMs);
    this.write(`retry: ${RETRY_MS}\n\n`);
    const presence = this.options.operators && this.options.presence(this.options.operators);
    if (presence) this.send(presence);
    void this.drain(true);
  }

  wake(): void {
    if (this.closed) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    void this.drain(false);
  }

  recheck(): void {
    if (this.closed || !this.options.allowed) return;
    this.checkDue = true;
    this.wake();
  }

  private async drain(first: boolean): Promise<void> {
    try {
      do {
        this.again = false;
        if (this.checkDue) {
          this.checkDue = false;
          // Nothing more once access is gone; the browser's reconnection is judged like any request.
          if (!(await this.options.allowed?.())) {
            this.close();
            return;
          }
        }
        const batch = await this.options.read(this.cursor);
        for (const event of batch.events) this.send(event);
        this.cursor = Math.max(this.cursor, batch.cursor);
        if (batch.end) {
          this.close();
          return;
        }
        if (batch.more) this.again = true;
      } while (this.again && !this.closed);
      if (first)
        this.send({ event: CHAT_EVENTS.ready, id: this.cursor, data: JSON.stringify({ cursor: this.cursor }) });
    } catch (error) {
      // The database is unreachable: the browser reconnects and catches up from its last id.
      log.warn(errorFields(error), 'Chat stream could not read');
      this.close();
    } finally {
      this.busy = false;
    }
  }

  presence(operators: OperatorPresence[]): void {
    const event = this.options.presence(operators);
    if (event) this.send(event);
  }

  typing(data: string): void {
    if (!this.closed) this.send({ event: TYPING_EVENT, data });
  }

  ping(): void {
    if (this.closed) return;
    if ((this.controller.desiredSize ?? 0) < -MAX_QUEUED) this.close(true);
    else this.write(': ping\n\n');
  }

  private send(event: StreamEvent): void {
    this.write(`event: ${event.event}\n${event.id === undefined ? '' : `id: ${event.id}\n`}data: ${event.data}\n\n`);
  }

  private write(text: string): void {
    if (!this.closed) this.controller.enqueue(encoder.encode(text));
  }

  /** Ends the stream (after what is queued; at once for a browser that stopped reading), once. */
  close(stalled = false): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.lifetime);
    this.unregister();
    try {
      if (stalled) this.controller.error(new Error('The browser stopped reading'));
      else this.controller.close();
    } catch {
      // Already cancelled by the browser leaving.
    }
    this.options.onClose?.().catch((error: Error) => log.error(errorFields(error), 'Chat stream clean-up failed'));
  }
}

/**
 * Answers with a server-sent event stream: `retry`, the presence, what the browser missed, `ready`,
 * then every change as it happens, with heartbeats, until the browser leaves or the lifetime ends.
 * A plain ReadableStream rather than Hono's streamSSE: the latter's TransformStream and writer cost
 * about 9 KB more per open stream (measured), and a thousand open streams is the budget.
 */
export function serveEventStream(options: EventStreamOptions): Response {
  let sink: Sink | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        sink = new Sink(controller, options);
        sink.start();
      },
      // The Node adapter cancels the body when the browser goes.
      cancel() {
        sink?.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // Proxies must pass each event on at once (nginx buffers unless told), and nothing may store it.
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    },
  });
}
