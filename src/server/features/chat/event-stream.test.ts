import { describe, expect, it, vi } from 'vitest';
import type { StreamSink } from './chat-hub.ts';
import { type EventStreamOptions, type StreamBatch, serveEventStream } from './event-stream.ts';

/** A stream whose first read gives `count` events, with the sink the hub would hold and its clean-up. */
function stream(count: number, overrides: Partial<EventStreamOptions> = {}) {
  let sink: StreamSink | undefined;
  const onClose = vi.fn(async () => {});
  let reads = 0;
  const read = async (cursor: number): Promise<StreamBatch> => {
    reads++;
    if (reads > 1) return { events: [], cursor };
    return {
      events: Array.from({ length: count }, (_, i) => ({ event: 'message', id: i + 1, data: `{"n":${i + 1}}` })),
      cursor: count,
    };
  };
  const response = serveEventStream({
    cursor: 0,
    read,
    presence: () => null,
    register: (registered) => {
      sink = registered;
      return () => {};
    },
    operators: null,
    lifetimeMs: 60_000,
    onClose,
    ...overrides,
  });
  return { response, sink: () => sink as StreamSink, onClose, reads: () => reads };
}

async function readAll(response: Response, until: (text: string) => boolean) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return { text, reader };
}

describe('event streams', () => {
  it('drops a browser that stopped reading at the next heartbeat, and cleans up once', async () => {
    const { response, sink, onClose, reads } = stream(300);
    await vi.waitFor(() => expect(reads()).toBe(1));
    // The 300 events are queued, none read.
    await new Promise((resolve) => setImmediate(resolve));
    sink().ping();
    expect(onClose).toHaveBeenCalledTimes(1);
    await expect((response.body as ReadableStream).getReader().read()).rejects.toThrow(/stopped reading/);
    sink().ping();
    sink().wake();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps a browser that reads, whatever it receives', async () => {
    const { response, sink, onClose } = stream(300);
    const { text, reader } = await readAll(response, (seen) => seen.includes('event: ready'));
    expect(text.match(/^event: message$/gm)).toHaveLength(300);
    expect(text).toMatch(/^id: 300$/m);
    sink().ping();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe(': ping\n\n');
    expect(onClose).not.toHaveBeenCalled();
    await reader.cancel();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('reads once more when woken during a read, never twice at once', async () => {
    let concurrent = 0;
    let most = 0;
    let reads = 0;
    const read = async (cursor: number): Promise<StreamBatch> => {
      reads++;
      concurrent++;
      most = Math.max(most, concurrent);
      await new Promise((resolve) => setTimeout(resolve, 5));
      concurrent--;
      return { events: [], cursor };
    };
    const { sink } = stream(0, { read });
    for (let i = 0; i < 10; i++) sink().wake();
    await vi.waitFor(() => expect(reads).toBe(2));
    expect(most).toBe(1);
  });

  it('asks whether it may go on before its first read and whenever the hub says so, and ends without reading when not', async () => {
    let allowed = true;
    const asked = vi.fn(async () => allowed);
    const { response, sink, onClose, reads } = stream(1, { allowed: asked });
    const { reader } = await readAll(response, (seen) => seen.includes('event: ready'));
    expect(asked).toHaveBeenCalledTimes(1);
    sink().wake();
    await vi.waitFor(() => expect(reads()).toBe(2));
    // A wake alone reads without asking; a recheck asks first.
    expect(asked).toHaveBeenCalledTimes(1);
    sink().recheck();
    await vi.waitFor(() => expect(reads()).toBe(3));
    expect(asked).toHaveBeenCalledTimes(2);

    allowed = false;
    sink().recheck();
    // Woken during the check, as a message written just after would: nothing more is read.
    sink().wake();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(asked).toHaveBeenCalledTimes(3);
    expect(reads()).toBe(3);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('ends after its lifetime', async () => {
    const { response, onClose } = stream(1, { lifetimeMs: 20 });
    const { text } = await readAll(response, () => false);
    expect(text).toMatch(/event: ready/);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
