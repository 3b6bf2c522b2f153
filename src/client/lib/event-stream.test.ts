import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followStream, type StreamState } from './event-stream.ts';

/** The browser's EventSource as far as followStream uses it; every one opened is kept in `opened`. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  closed = false;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly handlers = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  readonly url: string;

  constructor(url: string) {
    this.url = url;
    FakeEventSource.opened.push(this);
  }

  addEventListener(name: string, handler: (event: MessageEvent<string>) => void) {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
  }

  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server's side: the connection opens, an event arrives, the connection fails. */
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  emit(name: string, data: string, lastEventId = '') {
    for (const handler of this.handlers.get(name) ?? []) handler({ data, lastEventId } as MessageEvent<string>);
  }
  /** A dropped connection the browser will retry (CONNECTING), or a refusal it gives up on (CLOSED). */
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.();
  }
}

const latest = () => FakeEventSource.opened.at(-1) as FakeEventSource;

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Follows `path` with a handler for `message` events, recording what arrives and each state. */
function follow(path = '/api/chat/stream', after = 0, onRefused?: () => Promise<boolean>) {
  const received: unknown[] = [];
  const states: StreamState[] = [];
  const stream = followStream(path, after, {
    events: { message: (data: never) => received.push(data) },
    onState: (state) => states.push(state),
    onRefused,
  });
  return { stream, received, states };
}

describe('followStream', () => {
  it('opens the stream from the position given, and says when it is connecting and open', () => {
    const { states } = follow('/api/chat/stream', 7);
    expect(latest().url).toBe('/api/chat/stream?after=7');
    expect(states).toEqual(['connecting']);
    latest().open();
    expect(states).toEqual(['connecting', 'open']);
  });

  it('adds the position to an address that has a query already', () => {
    follow('/api/console/stream?status=open', 3);
    expect(latest().url).toBe('/api/console/stream?status=open&after=3');
  });

  it('hands each event its parsed data and moves the cursor to the last id seen, never back', () => {
    const { stream, received } = follow('/s', 5);
    latest().emit('message', '{"id":6}', '6');
    latest().emit('message', '{"id":9}', '9');
    latest().emit('message', '{"late":true}', '8');
    latest().emit('message', '{"noId":true}', '');
    latest().emit('other', '{"ignored":true}', '20');
    expect(received).toEqual([{ id: 6 }, { id: 9 }, { late: true }, { noId: true }]);
    expect(stream.cursor).toBe(9);
  });

  it('goes on after an event it cannot read or a handler that throws', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const received: unknown[] = [];
    followStream('/s', 0, {
      events: {
        message: (data: { fail?: boolean }) => {
          if (data.fail) throw new Error('handler failed');
          received.push(data);
        },
      },
    });
    latest().emit('message', 'not json', '1');
    latest().emit('message', '{"fail":true}', '2');
    latest().emit('message', '{"ok":1}', '3');
    expect(received).toEqual([{ ok: 1 }]);
    expect(error).toHaveBeenCalledTimes(2);
  });

  it('leaves a dropped connection to the browser, which reconnects with Last-Event-ID itself', async () => {
    const onRefused = vi.fn(async () => true);
    const { states } = follow('/s', 0, onRefused);
    latest().open();
    latest().fail(FakeEventSource.CONNECTING);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(states).toEqual(['connecting', 'open', 'lost']);
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(latest().closed).toBe(false);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('after a refusal, asks whether to go on and opens a new stream from the last id after a growing wait', async () => {
    const onRefused = vi.fn(async () => true);
    const { states } = follow('/s', 0, onRefused);
    latest().emit('message', '{}', '4');
    const waits: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const refused = latest();
      refused.fail(FakeEventSource.CLOSED);
      expect(refused.closed).toBe(true);
      let waited = 0;
      while (latest() === refused) {
        await vi.advanceTimersByTimeAsync(1_000);
        waited += 1_000;
      }
      waits.push(waited);
    }
    expect(onRefused).toHaveBeenCalledTimes(7);
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(FakeEventSource.opened.map((source) => source.url)).toEqual(['/s?after=0', ...Array(7).fill('/s?after=4')]);
    expect(states.slice(0, 3)).toEqual(['connecting', 'lost', 'connecting']);
  });

  it('waits a second again once a new stream has opened', async () => {
    follow('/s', 0, async () => true);
    latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(1_000);
    latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeEventSource.opened).toHaveLength(3);
    latest().open();
    latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeEventSource.opened).toHaveLength(4);
  });

  it('retries a refusal without asking when nobody is there to ask', async () => {
    follow('/s', 2);
    latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeEventSource.opened.map((source) => source.url)).toEqual(['/s?after=2', '/s?after=2']);
  });

  it('stops after a refusal when told that what it followed is gone', async () => {
    const { states } = follow('/s', 0, async () => false);
    latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(states).toEqual(['connecting', 'lost']);
  });

  it('closes the stream and opens no other once closed, even with a retry on its way', async () => {
    let answer: (again: boolean) => void = () => {};
    const { stream } = follow('/s', 0, () => new Promise((resolve) => (answer = resolve)));
    latest().fail(FakeEventSource.CLOSED);
    stream.close();
    answer(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.opened).toHaveLength(1);

    const waiting = follow('/t', 0, async () => true);
    latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(500);
    waiting.stream.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.opened.filter((source) => source.url.startsWith('/t'))).toHaveLength(1);

    const open = follow('/u', 0);
    open.stream.close();
    expect(latest().closed).toBe(true);
  });
});
