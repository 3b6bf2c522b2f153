// `npm run bench:chat`: the support chat's budgets.
//   latency  a visitor's message on one instance reaching an operator's console stream on another,
//            and the reply back, both instances on one PostgreSQL (DATABASE_URL, or
//            TEST_DATABASE_URL; a throwaway schema is made and dropped): p50, p95, p99, max.
//   streams  1,000 visitors' event streams open on one instance, started as `npm run serve` starts
//            the server (api-bench-child.ts; PGlite, or PostgreSQL with --database postgres): the
//            instance's memory before and after, per stream, and how long
//            one change takes to reach all of them; on PostgreSQL also, with the streams open,
//            messages from some of those visitors to an operator's console and replies back to
//            their streams, one at a time (--delivery N samples each way, default 200).
//            Then the typing signal (never stored, LISTEN/NOTIFY only) both ways: --typing N samples.
//   size     what the launcher and the panel add to a public page (see chat-size.ts).
// Options: --only latency|streams|size, --messages N (default 500), --streams N (default 1000),
// --typing N (default 300), --delivery N (default 200).

import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { CHAT_HOURS_API, TYPING_EVENT } from '#common/chat-hours.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { chatMessage } from '#tests/support/chat.ts';
import { HttpClient, type Instance, seedStaff, startInstance } from '#tests/support/instances.ts';
import { withBenchSchema } from '#tests/support/postgres-schemas.ts';
import { type ApiBenchChild, startApiBenchChild } from './api-bench-child.ts';
import { chatSizes } from './chat-size.ts';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    messages: { type: 'string', default: '500' },
    streams: { type: 'string', default: '1000' },
    database: { type: 'string', default: 'pglite' },
    typing: { type: 'string', default: '300' },
    delivery: { type: 'string', default: '200' },
  },
});
const MESSAGES = Number(args.messages);
const STREAMS = Number(args.streams);
const TYPING = Number(args.typing);
const DELIVERY = Number(args.delivery);
/** The server drops a second typing signal of one side of a conversation within a second (typing.ts). */
const TYPING_GAP_MS = 1_100;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (n: number) => `${n.toFixed(1)} ms`;
  return `p50 ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, p99 ${f(percentile(sorted, 99))}, max ${f(sorted.at(-1) ?? Number.NaN)} (${sorted.length} messages)`;
};

/**
 * Calls `onEvent` for each event of a stream as it arrives (no polling), until the body ends;
 * returns how to leave it.
 */
function consume(response: Response, onEvent: (event: string, data: string) => void): () => Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) onEvent(event, data.join('\n'));
        }
      }
    } catch {
      // Cancelled.
    }
  })();
  return () => reader.cancel().catch(() => {});
}

/** Resolves `wait(key)` when `arrive(key)` is called, and remembers when. */
function arrivals() {
  const waiting = new Map<string, (at: number) => void>();
  const early = new Map<string, number>();
  return {
    arrive(key: string) {
      const at = performance.now();
      const resolve = waiting.get(key);
      if (resolve) {
        waiting.delete(key);
        resolve(at);
      } else early.set(key, at);
    },
    wait(key: string): Promise<number> {
      const at = early.get(key);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((resolve) => waiting.set(key, resolve));
    },
  };
}

/** Arrivals of repeated signals: the nth signal of `key` arrives as `${n}:${key}`. */
function counted(inner: ReturnType<typeof arrivals>) {
  const seen = new Map<string, number>();
  return {
    next(key: string) {
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      inner.arrive(`${n}:${key}`);
    },
    wait: inner.wait,
  };
}

async function benchLatency() {
  await withBenchSchema(async (url) => {
    const db = await openDatabase({ dataDir: 'unused', databaseUrl: url });
    const operators = Array.from({ length: 5 }, () => new HttpClient());
    for (const operator of operators) await seedStaff(db, operator);
    const instances: Instance[] = [];
    const streams: (() => Promise<void>)[] = [];
    try {
      const [a, b] = await Promise.all([startInstance({ DATABASE_URL: url }), startInstance({ DATABASE_URL: url })]);
      instances.push(a as Instance, b as Instance);
      if (!a || !b) throw new Error('instances did not start');
      // The operator's console on B hears every visitor message.
      const atConsole = arrivals();
      const typingAtConsole = counted(arrivals());
      const consoleResponse = await operators[0]?.fetch(b.url, 'GET', CONSOLE_CHAT_API.stream);
      if (!consoleResponse?.body) throw new Error('no console stream');
      let consoleReady: () => void = () => {};
      const ready = new Promise<void>((resolve) => {
        consoleReady = resolve;
      });
      streams.push(
        consume(consoleResponse, (event, data) => {
          if (event === 'ready') consoleReady();
          if (event === 'message') atConsole.arrive((JSON.parse(data) as { clientMessageId: string }).clientMessageId);
          if (event === TYPING_EVENT)
            typingAtConsole.next(String((JSON.parse(data) as { conversationId: number }).conversationId));
        }),
      );
      await ready;

      // Visitors on A; each writes a few messages (the per-conversation limit is 10 a minute).
      const visitors = Array.from({ length: Math.ceil(MESSAGES / 5) }, () => new HttpClient());
      const conversations: number[] = [];
      for (const visitor of visitors) {
        const started = await visitor.post(a.url, CHAT_API.messages, chatMessage('hello'));
        if (started.status !== 201) throw new Error(`first message answered ${started.status}`);
      }
      const [first] = await db.query<{ id: number }>('SELECT min(id)::integer AS id FROM chat_conversations');
      for (let i = 0; i < visitors.length; i++) conversations.push((first?.id ?? 0) + i);

      const toConsole: number[] = [];
      const post: number[] = [];
      const afterAnswer: number[] = [];
      for (let i = 0; i < MESSAGES - visitors.length; i++) {
        const visitor = visitors[i % visitors.length] as HttpClient;
        const message = chatMessage(`message ${i}`);
        const arrived = atConsole.wait(message.clientMessageId);
        const start = performance.now();
        const answer = await visitor.post(a.url, CHAT_API.messages, message);
        const answered = performance.now();
        post.push(answered - start);
        if (answer.status !== 201) throw new Error(`message answered ${answer.status}`);
        const at = await arrived;
        toConsole.push(at - start);
        // Often negative: the event reaches B's console before A's answer reaches the visitor.
        afterAnswer.push(at - answered);
      }

      // The other way: each visitor follows its conversation on A; operators answer on B.
      const atVisitors = arrivals();
      const typingAtVisitors = counted(arrivals());
      for (const [index, visitor] of visitors.entries()) {
        const response = await visitor.fetch(a.url, 'GET', CHAT_API.stream);
        if (!response.body) throw new Error('no visitor stream');
        const opened = new Promise<void>((resolve) => {
          streams.push(
            consume(response, (event, data) => {
              if (event === 'ready') resolve();
              if (event === 'message')
                atVisitors.arrive((JSON.parse(data) as { clientMessageId: string }).clientMessageId);
              if (event === TYPING_EVENT) typingAtVisitors.next(String(conversations[index]));
            }),
          );
        });
        await opened;
      }
      const toVisitor: number[] = [];
      for (let i = 0; i < MESSAGES - visitors.length; i++) {
        const operator = operators[i % operators.length] as HttpClient;
        const reply = chatMessage(`reply ${i}`);
        const arrived = atVisitors.wait(reply.clientMessageId);
        const start = performance.now();
        const answer = await operator.post(
          b.url,
          CONSOLE_CHAT_API.reply(conversations[i % conversations.length] ?? 0),
          reply,
        );
        if (answer.status !== 201) throw new Error(`reply answered ${answer.status}`);
        toVisitor.push((await arrived) - start);
      }
      console.log('\nChat across two instances on one PostgreSQL (loopback), one message at a time');
      console.log(`  visitor on A -> operator's console on B:  ${summary(toConsole)}`);
      console.log(`  the visitor's POST on A alone:            ${summary(post)}`);
      console.log(`  arrival on B after A's answer:            ${summary(afterAnswer)}`);
      console.log(
        `  (load average while it ran: ${loadavg()
          .map((n) => n.toFixed(1))
          .join(', ')} on ${cpus().length} cores)`,
      );
      console.log(`  operator on B -> visitor's stream on A:   ${summary(toVisitor)}`);

      // Typing: a signal per conversation and side at most once a second gets through, so the
      // samples go round the conversations, each waiting until its own last signal is that old.
      const typingToConsole: number[] = [];
      const typingToVisitor: number[] = [];
      const lastSent = new Map<string, number>();
      const spaced = async (key: string) => {
        const wait = (lastSent.get(key) ?? Number.NEGATIVE_INFINITY) + TYPING_GAP_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        lastSent.set(key, performance.now());
      };
      for (let round = 0; typingToConsole.length < TYPING; round++) {
        for (let i = 0; i < visitors.length && typingToConsole.length < TYPING; i++) {
          const conversation = String(conversations[i]);
          const atB = typingAtConsole.wait(`${round}:${conversation}`);
          await spaced(`v${conversation}`);
          const start = performance.now();
          const sent = await (visitors[i] as HttpClient).post(a.url, CHAT_HOURS_API.typing, {});
          if (sent.status !== 200) throw new Error(`typing answered ${sent.status}`);
          typingToConsole.push((await atB) - start);
          const atA = typingAtVisitors.wait(`${round}:${conversation}`);
          await spaced(`o${conversation}`);
          const back = performance.now();
          const operator = operators[i % operators.length] as HttpClient;
          await operator.post(b.url, CHAT_HOURS_API.operatorTyping(conversation), {});
          typingToVisitor.push((await atA) - back);
        }
      }
      console.log('\nTyping across the two instances (a NOTIFY, never stored), one signal at a time');
      console.log(`  visitor on A -> operator's console on B:  ${summary(typingToConsole)}`);
      console.log(`  operator on B -> visitor's stream on A:   ${summary(typingToVisitor)}`);
    } finally {
      await Promise.all(streams.map((cancel) => cancel()));
      await Promise.all(instances.map((instance) => instance.stop()));
      await db.close();
    }
  });
}

/** The server's memory once settled: the smallest of a few readings, each after a garbage collection. */
async function settledMemory(server: ApiBenchChild) {
  const readings: NodeJS.MemoryUsage[] = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    readings.push(await server.memory());
  }
  const least = (key: keyof NodeJS.MemoryUsage) => Math.min(...readings.map((reading) => reading[key]));
  return { rss: least('rss'), heap: least('heapUsed'), external: least('external') };
}

async function benchStreams() {
  const run = async (databaseUrl?: string) => {
    const env: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
    const instance = await startApiBenchChild(env);
    const streams: (() => Promise<void>)[] = [];
    try {
      const visitors = Array.from({ length: STREAMS }, () => new HttpClient());
      for (let i = 0; i < visitors.length; i += 50) {
        await Promise.all(
          visitors.slice(i, i + 50).map(async (visitor) => {
            const answer = await visitor.post(instance.url, CHAT_API.messages, chatMessage('hello'));
            if (answer.status !== 201) throw new Error(`first message answered ${answer.status}`);
          }),
        );
      }
      const before = await settledMemory(instance);
      let readyCount = 0;
      let onlineCount = 0;
      let allReady: () => void = () => {};
      const everyoneReady = new Promise<void>((resolve) => {
        allReady = resolve;
      });
      let allOnline: () => void = () => {};
      const everyoneOnline = new Promise<void>((resolve) => {
        allOnline = resolve;
      });
      const atVisitors = arrivals();
      for (let i = 0; i < visitors.length; i += 50) {
        await Promise.all(
          visitors.slice(i, i + 50).map(async (visitor) => {
            const response = await visitor.fetch(instance.url, 'GET', CHAT_API.stream);
            if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}`);
            streams.push(
              consume(response, (event, data) => {
                if (event === 'ready' && ++readyCount === STREAMS) allReady();
                if (event === 'presence' && (JSON.parse(data) as { operatorsOnline: boolean }).operatorsOnline) {
                  if (++onlineCount === STREAMS) allOnline();
                }
                if (event === 'message') {
                  const { author, clientMessageId } = JSON.parse(data) as { author: string; clientMessageId: string };
                  if (author === 'operator') atVisitors.arrive(clientMessageId);
                }
              }),
            );
          }),
        );
      }
      await everyoneReady;
      const after = await settledMemory(instance);
      // One change every stream shows: an operator comes online.
      const db = databaseUrl ? await openDatabase({ dataDir: 'unused', databaseUrl }) : null;
      let fanOut = Number.NaN;
      const toConsole: number[] = [];
      const toVisitor: number[] = [];
      if (db) {
        const operator = new HttpClient();
        await seedStaff(db, operator);
        const atConsole = arrivals();
        const conversationOf = new Map<string, number>();
        const start = performance.now();
        const response = await operator.fetch(instance.url, 'GET', CONSOLE_CHAT_API.stream);
        if (response.body) {
          streams.push(
            consume(response, (event, data) => {
              if (event !== 'message') return;
              const { clientMessageId, conversationId } = JSON.parse(data) as {
                clientMessageId: string;
                conversationId: number;
              };
              conversationOf.set(clientMessageId, conversationId);
              atConsole.arrive(clientMessageId);
            }),
          );
        }
        await everyoneOnline;
        fanOut = performance.now() - start;
        // Delivery with every stream open, one message at a time, from visitors spread over them.
        const step = Math.max(1, Math.floor(STREAMS / DELIVERY));
        const conversations: number[] = [];
        for (let i = 0; i < DELIVERY; i++) {
          const visitor = visitors[(i * step) % visitors.length] as HttpClient;
          const message = chatMessage(`with the streams open ${i}`);
          const arrived = atConsole.wait(message.clientMessageId);
          const sent = performance.now();
          const answer = await visitor.post(instance.url, CHAT_API.messages, message);
          if (answer.status !== 200 && answer.status !== 201) throw new Error(`message answered ${answer.status}`);
          toConsole.push((await arrived) - sent);
          conversations.push(conversationOf.get(message.clientMessageId) ?? 0);
        }
        // An operator may send 120 messages a minute (chat-limits.ts): the replies go round several.
        const repliers = [operator, ...Array.from({ length: Math.ceil(DELIVERY / 100) }, () => new HttpClient())];
        for (const replier of repliers.slice(1)) await seedStaff(db, replier);
        for (const [index, conversation] of conversations.entries()) {
          const reply = chatMessage('a reply');
          const arrived = atVisitors.wait(reply.clientMessageId);
          const sent = performance.now();
          const replier = repliers[index % repliers.length] as HttpClient;
          const answer = await replier.post(instance.url, CONSOLE_CHAT_API.reply(conversation), reply);
          if (answer.status !== 201) throw new Error(`reply answered ${answer.status}`);
          toVisitor.push((await arrived) - sent);
        }
        await db.close();
      }
      const store = databaseUrl ? 'PostgreSQL' : 'PGlite';
      console.log(`\n${STREAMS} open event streams on one instance (${store})`);
      const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
      const per = (key: 'rss' | 'heap' | 'external') =>
        `${((after[key] - before[key]) / 1024 / STREAMS).toFixed(1)} KB`;
      console.log(
        `  process memory (RSS): ${mb(before.rss)} before, ${mb(after.rss)} with the streams: ${per('rss')} per stream`,
      );
      console.log(
        `  JavaScript heap in use: ${mb(before.heap)} before, ${mb(after.heap)} with them: ${per('heap')} per stream`,
      );
      console.log(`  external (buffers): ${per('external')} per stream`);
      if (db) {
        console.log(`  an operator coming online reaches all ${STREAMS} streams in ${fanOut.toFixed(0)} ms`);
        console.log(`  with them open, a visitor -> the operator's console: ${summary(toConsole)}`);
        console.log(`  and the operator -> the visitor's stream:            ${summary(toVisitor)}`);
      }
    } finally {
      await Promise.all(streams.map((cancel) => cancel()));
      await instance.stop();
      await instance.remove();
    }
  };
  if (args.database === 'postgres') await withBenchSchema((url) => run(url));
  else await run();
}

async function benchSize() {
  const sizes = await chatSizes();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
  console.log(
    '\nWhat the chat adds to a public page, gzip as served (node scripts/bench/chat-size.ts --base for the entry)',
  );
  console.log(
    `  launcher and its styles: ${kb(sizes.launcher)}; texts of one language: ${kb(sizes.largestTexts)} at most`,
  );
  console.log(`  panel: ${kb(sizes.panel)}`);
}

const only = args.only;
if (!only || only === 'size') await benchSize();
if (!only || only === 'latency') await benchLatency();
if (!only || only === 'streams') await benchStreams();
