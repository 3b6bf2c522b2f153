import http from 'node:http';
import zlib from 'node:zlib';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header lines as received, to see a header sent twice. */
  rawHeaders: string[];
  /** The body as sent (still compressed when Content-Encoding says so). */
  body: Buffer;
  ms: number;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** JSON unless the headers name another type. */
  body?: string | Buffer;
  /** The loopback address the request comes from (Linux answers on all of 127.0.0.0/8). */
  localAddress?: string;
  agent?: http.Agent | false;
  timeoutMs?: number;
}

/** One HTTP request to 127.0.0.1; rejects on a network error or when no answer comes in time. */
export function request(port: number, target: string, options: RequestOptions = {}): Promise<Answer> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: options.method ?? 'GET',
        // The length always: Node sends the body of a DELETE without one, which a server reads as none.
        headers:
          options.body === undefined
            ? options.headers
            : {
                'Content-Type': 'application/json',
                'Content-Length': String(Buffer.byteLength(options.body)),
                ...options.headers,
              },
        localAddress: options.localAddress,
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          });
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(options.body);
  });
}

/** The body as text, decompressed as its Content-Encoding says. */
export function decoded(answer: Answer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  return answer.body;
}

/** The body as text, decompressed. */
export const textOf = (answer: Answer) => decoded(answer).toString('utf8');

export const json = <T>(answer: Answer): T => JSON.parse(textOf(answer)) as T;

/** The value of a cookie the answer sets, or undefined. */
export function setCookie(answer: Answer, name: string): string | undefined {
  for (const line of answer.headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const at = pair?.indexOf('=') ?? -1;
    if (pair && at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}
