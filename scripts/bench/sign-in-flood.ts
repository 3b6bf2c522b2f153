// A flood of sign-ins for addresses no account has, each from a client address of its own, sent by
// `connections` loops at once for some seconds from a thread of its own: hundreds of connections on
// the thread that also times the honest sign-ins would add that thread's event loop delays to their
// times, which a flood from other machines would not.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { ACCOUNT_API } from '#common/account-api.ts';

export interface Flood {
  base: string;
  /** The visitor cookie every sign-in carries. */
  cookie: string;
  /** The second number of every client address: 11.block.x.y. */
  block: number;
  connections: number;
  seconds: number;
}

/** Each answer's status and time in ms. */
export interface FloodAnswers {
  statuses: [number, number][];
  times: number[];
}

/** One sign-in, sent as from the client address `address` (through the one trusted proxy), with `cookie`. */
export function sendSignIn(base: string, address: string, cookie: string, email: string, password: string) {
  return fetch(`${base}${ACCOUNT_API.login}`, {
    method: 'POST',
    headers: { Origin: base, 'Content-Type': 'application/json', 'X-Forwarded-For': address, Cookie: cookie },
    body: JSON.stringify({ email, password }),
  });
}

export function flood(plan: Flood): Promise<FloodAnswers> {
  const worker = new Worker(new URL(import.meta.url), { workerData: plan });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function run({ base, cookie, block, connections, seconds }: Flood): Promise<FloodAnswers> {
  const statuses = new Map<number, number>();
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  let sent = 0;
  const loop = async (n: number) => {
    for (let i = 0; performance.now() < until; i++) {
      sent += 1;
      const start = performance.now();
      // Under 11/8, apart from the honest sign-ins' 10/8.
      const address = `11.${block}.${(sent >> 8) & 255}.${sent & 255}`;
      const email = `nobody-flood-${block}-${n}-${i}@example.com`;
      const response = await sendSignIn(base, address, cookie, email, 'a guess');
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      times.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, n) => loop(n)));
  return { statuses: [...statuses], times };
}

if (!isMainThread && parentPort) parentPort.postMessage(await run(workerData as Flood));
