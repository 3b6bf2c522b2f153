// A page requested by a few loops at once for some seconds, each loop sending its next request when
// the last one is answered, timed in a thread of its own: a benchmark that also floods the server
// from its main thread (hundreds of connections) would otherwise add its own event loop's delays to
// every page's time.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export interface PageLoop {
  url: string;
  /** Loops at once. */
  loops: number;
  seconds: number;
}

/** Each answer's time in ms, and how long the loops ran, in seconds. */
export interface PageTimes {
  times: number[];
  seconds: number;
}

export function timePages(loop: PageLoop): Promise<PageTimes> {
  const worker = new Worker(new URL(import.meta.url), { workerData: loop });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function run({ url, loops, seconds }: PageLoop): Promise<PageTimes> {
  const times: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const response = await fetch(url, { headers: { 'Accept-Encoding': 'br' } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      times.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  return { times, seconds: (performance.now() - started) / 1000 };
}

if (!isMainThread && parentPort) parentPort.postMessage(await run(workerData as PageLoop));
