import { readdirSync, readFileSync } from 'node:fs';

/**
 * The nice values of a Linux process's threads, from /proc (the 19th field of each thread's stat
 * line): its own thread's, libuv's pool threads' (named `libuv-worker`, where hashes run), and the
 * others'.
 */
export function threadPriorities(pid: number): { own: number; pool: number[]; others: number[] } {
  const threads = readdirSync(`/proc/${pid}/task`).map((id) => {
    const stat = readFileSync(`/proc/${pid}/task/${id}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { id, name, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
  });
  const own = threads.find((thread) => thread.id === String(pid));
  return {
    own: own?.nice ?? Number.NaN,
    pool: threads.filter((thread) => thread.name === 'libuv-worker').map((thread) => thread.nice),
    others: threads.filter((thread) => thread !== own && thread.name !== 'libuv-worker').map((thread) => thread.nice),
  };
}
