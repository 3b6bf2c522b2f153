// `npm run bench:countries`: what the IP-to-country table costs (decision 215): how long it takes to
// load (wall and processor time) and the longest the event loop waited meanwhile, the memory it
// keeps, and how fast a look-up is, address parsing included, for a mix of IPv4 and IPv6 addresses.

import { addressWords } from '#server/platform/ip-address.ts';
import { countryIn, loadCountryTables } from '#server/platform/ip-country.ts';
import { watchEventLoop } from './loop-waits.ts';

const LOOKUPS = 1_000_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('Run with node --expose-gc (npm run bench:countries does).');
  process.exit(1);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

gc();
const before = process.memoryUsage();
const loop = await watchEventLoop();
const started = performance.now();
const cpu = process.cpuUsage();
const tables = await loadCountryTables();
const used = process.cpuUsage(cpu);
const loadMs = performance.now() - started;
const peak = process.memoryUsage();
const longestWait = await loop.stop();
// Freed file buffers are given back after a turn of the event loop.
await new Promise((resolve) => setTimeout(resolve, 100));
gc();
gc();
const after = process.memoryUsage();
const kept = [tables.v4, tables.v6].reduce((sum, table) => sum + table.starts.byteLength + table.codes.byteLength, 0);

console.log(
  `load: ${loadMs.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms processor; ` +
    `longest event-loop wait ${longestWait.toFixed(1)} ms`,
);
console.log(
  `ranges: ${tables.v4.codes.length} IPv4, ${tables.v6.codes.length} IPv6, ${tables.countries.length - 1} countries; ` +
    `typed arrays ${mib(kept)}`,
);
console.log(
  `memory after GC: +${mib(after.arrayBuffers - before.arrayBuffers)} array buffers, ` +
    `+${mib(after.heapUsed - before.heapUsed)} heap, +${mib(after.rss - before.rss)} resident ` +
    `(array buffers while loading: ${mib(peak.arrayBuffers)})`,
);

// Addresses spread over the whole space, one in four IPv6, written as text as clients send them.
const addresses = Array.from({ length: 4096 }, (_, i) => {
  const word = () => Math.floor(Math.random() * 0x100000000);
  if (i % 4 === 3) {
    const hex = (n: number) => n.toString(16);
    const a = word();
    const b = word();
    return `${hex(0x2000 + (a >>> 20))}:${hex(a & 0xffff)}:${hex(b >>> 16)}:${hex(b & 0xffff)}::1`;
  }
  const n = word();
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
});
let found = 0;
const lookupStart = performance.now();
for (let i = 0; i < LOOKUPS; i++) {
  const words = addressWords(addresses[i & 4095] as string);
  if (words && countryIn(tables, words)) found++;
}
const lookupMs = performance.now() - lookupStart;
console.log(
  `look-up: ${((lookupMs * 1000) / LOOKUPS).toFixed(2)} µs each, parsing included ` +
    `(${Math.round(LOOKUPS / (lookupMs / 1000)).toLocaleString('en')} a second on one core; ${((found / LOOKUPS) * 100).toFixed(0)}% found a country)`,
);
