import { expect, vi } from 'vitest';

export interface ServerEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Reads a server-sent event stream as a browser would, in the background: its events in order, and
 * how many comment lines (heartbeats) came. `close()` leaves like a browser closing the page.
 */
export class EventStreamReader {
  readonly events: ServerEvent[] = [];
  heartbeats = 0;
  retry: number | null = null;
  ended = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly pumping: Promise<void>;
  readonly response: Response;

  constructor(response: Response) {
    this.response = response;
    if (!response.body) throw new Error('The answer has no body');
    this.reader = response.body.getReader();
    this.pumping = this.pump();
  }

  private async pump() {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          this.take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Cancelled by close().
    }
    this.ended = true;
  }

  private take(block: string) {
    const event: ServerEvent = { event: 'message', data: '' };
    const data: string[] = [];
    let isEvent = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.heartbeats++;
      else if (line.startsWith('retry: ')) this.retry = Number(line.slice(7));
      else if (line.startsWith('event: ')) {
        event.event = line.slice(7);
        isEvent = true;
      } else if (line.startsWith('data: ')) {
        data.push(line.slice(6));
        isEvent = true;
      } else if (line.startsWith('id: ')) event.id = line.slice(4);
    }
    if (!isEvent) return;
    event.data = data.join('\n');
    this.events.push(event);
  }

  /** The events named `name`, with their data parsed. */
  of<T = Record<string, unknown>>(name: string): (T & { eventId?: string })[] {
    return this.events.filter((e) => e.event === name).map((e) => ({ ...(JSON.parse(e.data) as T), eventId: e.id }));
  }

  /** Waits until `check` passes on this stream (it throws until then). */
  async until(check: (stream: this) => void, timeout = 10_000): Promise<void> {
    await vi.waitFor(() => check(this), { timeout, interval: 10 });
  }

  /** Waits for the `ready` event that ends the catch-up. */
  async ready(): Promise<void> {
    await this.until((stream) => expect(stream.events.some((e) => e.event === 'ready')).toBe(true));
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => {});
    await this.pumping;
  }
}
