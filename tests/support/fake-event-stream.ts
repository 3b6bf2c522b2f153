import type { FollowOptions } from '#client/lib/event-stream.ts';

/** A stream a store follows in a unit test: where it started, what it handles, and whether it was closed. */
export interface FakeStream {
  path: string;
  after: number;
  options: FollowOptions;
  cursor: number;
  closed: boolean;
  close(): void;
}

/**
 * A stand-in for `#client/lib/event-stream.ts` whose `followStream` records each stream in `into`
 * (an array from `vi.hoisted`, so that it outlives `vi.resetModules`). The event-stream client has
 * tests of its own; a store's tests give it the streams it asks for and play events into them.
 */
export function fakeEventStreams(into: FakeStream[]) {
  return {
    followStream: (path: string, after: number, options: FollowOptions): FakeStream => {
      const stream: FakeStream = {
        path,
        after,
        options,
        cursor: after,
        closed: false,
        close() {
          this.closed = true;
        },
      };
      into.push(stream);
      return stream;
    },
  };
}
