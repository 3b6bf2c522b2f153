// `node scripts/wait-ready.ts http://127.0.0.1:3001/api/health/ready [seconds]`: waits until the
// address answers 200, at most `seconds` (default 60), and exits 0; exits 1 if it never does. The
// systemd unit (deploy/site@.service) runs it after starting an instance, so that `systemctl
// restart site@3001` returns once that instance serves, and a restart of the next one may follow.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

const POLL_MS = 250;

export async function waitReady(url: string, seconds: number): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const status = await fetch(url, { signal: AbortSignal.timeout(Math.min(5_000, deadline - Date.now())) }).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [url, seconds = '60'] = process.argv.slice(2);
  if (!url || !(Number(seconds) > 0)) {
    console.error('Usage: node scripts/wait-ready.ts URL [seconds]');
    process.exit(2);
  }
  if (!(await waitReady(url, Number(seconds)))) {
    console.error(`${url} did not answer 200 within ${seconds} s`);
    process.exit(1);
  }
}
