// How fast the console's search answers over 100,000 messages: `npm run bench:search`. Seeds a
// database of its own (seed-search.ts: 90,000 chat messages in 10,000 conversations and 10,000
// contact messages, in the six languages), then runs the search the console's API runs for words
// of each language, an address and a name, and prints the median (p50) and p99 of each and of all.
// PGlite in a temporary folder, or, with DATABASE_URL, a schema of its own in that PostgreSQL
// (dropped at the end). Budgets (p50 of all): 100 ms on PostgreSQL, 300 ms on PGlite.
import { search } from '#server/features/search/index.ts';
import { newSchemaName } from '#tests/support/postgres-schemas.ts';
import { openBenchDatabase } from './bench-database.ts';
import { seedSearch } from './seed-search.ts';

const MESSAGES = Number(process.env.SEARCH_BENCH_MESSAGES ?? 100_000);
const ROUNDS = 15;
const QUERIES = [
  'delivery',
  'refunds tomorrow',
  'Rechnungen',
  'spedizione',
  'commandes',
  'bestellingen',
  'จัดส่ง',
  'visitor3000@example.com',
  'Sender 4242',
  'nothingmatchesthis',
];

const url = process.env.DATABASE_URL;
const budget = url ? 100 : 300;
const { db, drop } = await openBenchDatabase(newSchemaName('bench_search'));
const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
try {
  const seeding = performance.now();
  const seeded = await seedSearch(db, MESSAGES);
  await db.query('ANALYZE');
  console.log(
    `Seeded ${seeded.chat} chat and ${seeded.contact} contact messages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const all: number[] = [];
  for (const q of QUERIES) await search(db, q); // warm-up
  for (const q of QUERIES) {
    const times: number[] = [];
    let hits = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      const answer = await search(db, q);
      times.push(performance.now() - start);
      hits = answer.chats.length + answer.contact.length;
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    console.log(
      `  ${q.padEnd(26)} p50 ${at(times, 0.5).toFixed(1).padStart(7)} ms  p99 ${at(times, 0.99).toFixed(1).padStart(7)} ms  (${hits} hits)`,
    );
  }
  all.sort((a, b) => a - b);
  const p50 = at(all, 0.5);
  console.log(
    `Search over ${MESSAGES} messages on ${url ? 'PostgreSQL' : 'PGlite'}: p50 ${p50.toFixed(1)} ms, p99 ${at(all, 0.99).toFixed(1)} ms (${all.length} searches; ${p50 < budget ? 'within' : 'OVER'} the ${budget} ms budget)`,
  );
  process.exitCode = p50 < budget ? 0 : 1;
} finally {
  await db.close();
  await drop();
}
