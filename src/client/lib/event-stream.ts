/** Where a followed stream stands: opening, receiving, or waiting to reconnect. */
export type StreamState = 'connecting' | 'open' | 'lost';

export interface FollowOptions {
  /** Handlers by event name, given the parsed data. */
  events: Record<string, (data: never) => void>;
  onState?(state: StreamState): void;
  /**
   * The server refused the stream (an error status, so the browser will not retry by itself).
   * Resolve true to try again later, false to stop (what the stream showed is gone).
   */
  onRefused?(): Promise<boolean>;
}

export interface FollowedStream {
  /** The last event id seen: where a new stream would start. */
  readonly cursor: number;
  close(): void;
}

const MAX_RETRY_MS = 30_000;

/**
 * Follows a server-sent event stream from position `after`. The browser's EventSource reconnects
 * by itself after a dropped connection or when the server ends the stream, and sends the last id
 * it saw (Last-Event-ID), so nothing is missed or repeated. When the server refuses the stream
 * outright, EventSource gives up: this opens a new one after a growing wait, from the last id.
 */
export function followStream(path: string, after: number, options: FollowOptions): FollowedStream {
  let cursor = after;
  let source: EventSource | null = null;
  let closed = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    if (closed) return;
    const url = `${path}${path.includes('?') ? '&' : '?'}after=${cursor}`;
    const current = new EventSource(url);
    source = current;
    options.onState?.('connecting');
    current.onopen = () => {
      failures = 0;
      options.onState?.('open');
    };
    for (const [name, handle] of Object.entries(options.events)) {
      current.addEventListener(name, (event) => {
        const message = event as MessageEvent<string>;
        const id = Number(message.lastEventId);
        if (Number.isSafeInteger(id) && id > cursor) cursor = id;
        try {
          handle(JSON.parse(message.data) as never);
        } catch (error) {
          console.error(error);
        }
      });
    }
    current.onerror = () => {
      options.onState?.('lost');
      if (current.readyState !== EventSource.CLOSED) return;
      current.close();
      const retry = options.onRefused ? options.onRefused() : Promise.resolve(true);
      void retry.then((again) => {
        if (!again || closed) return;
        const wait = Math.min(MAX_RETRY_MS, 1_000 * 2 ** failures++);
        timer = setTimeout(open, wait);
      });
    };
  };
  open();

  return {
    get cursor() {
      return cursor;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
    },
  };
}
