import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';

/**
 * Starts watching the event loop; `stop` resolves to the longest it went without a turn, in ms: how
 * long a request arriving meanwhile would have waited. Node's histogram only starts its clock at its
 * first tick and records a stretch at the tick after it, so both are waited for here: without them,
 * work that never lets the loop turn read as 1 ms.
 */
export async function watchEventLoop(): Promise<{ stop(): Promise<number> }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await setTimeout(5);
  return {
    async stop() {
      await setTimeout(5);
      delay.disable();
      return delay.max / 1e6;
    },
  };
}
