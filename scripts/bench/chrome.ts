/** The system's Chromium (Debian's package by default) and the flags it runs with in tests and benchmarks. */
export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

// No sandbox (root in CI), no GPU, and none of the background calls home this machine's closed
// network would refuse.
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
