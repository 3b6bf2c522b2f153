import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it, with its parts decoded. */
export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** The parts the HTML names by Content-ID (the logo), decoded. */
  inline: { type: string; cid: string; content: Buffer }[];
}

export interface TestMailServer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  mails: CaughtMail[];
  /** The first mail to `address` after the first `skip` ones (waits up to `timeoutMs` for it). */
  waitFor(address: string, skip?: number, timeoutMs?: number): Promise<CaughtMail>;
  stop(): Promise<void>;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

function decodeBody(body: string, encoding = ''): Buffer {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s/g, ''), 'base64');
  if (/quoted-printable/i.test(encoding)) return Buffer.from(decodeQuotedPrintable(body), 'utf8');
  return Buffer.from(body, 'utf8');
}

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects. */
const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );

interface Part {
  type: string;
  /** Its Content-ID without the angle brackets, for a part the HTML names (`cid:…`). */
  cid?: string;
  content: Buffer;
}

/** The leaf parts of a MIME entity, however deep its multiparts nest (text, HTML, related images). */
function leafParts(headers: Record<string, string>, body: string): Part[] {
  const type = headers['content-type'] ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) {
    const cid = /^<(.*)>$/.exec(headers['content-id'] ?? '')?.[1];
    return [{ type, ...(cid ? { cid } : {}), content: decodeBody(body, headers['content-transfer-encoding']) }];
  }
  // The line break before each boundary belongs to the boundary, not to the part.
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => part.replace(/^\r?\n/, '').replace(/\r?\n$/, ''))
    .flatMap((part) => {
      const at = part.search(/\r?\n\r?\n/);
      return leafParts(parseHeaders(part.slice(0, at)), part.slice(at).replace(/^\r?\n\r?\n/, ''));
    });
}

/** Enough MIME for what nodemailer sends: a single part, or multiparts of text, HTML and inline images. */
export function parseMail(raw: string): Omit<CaughtMail, 'from' | 'to'> {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(raw.slice(0, split));
  const parts = leafParts(headers, raw.slice(split).replace(/^\r?\n\r?\n/, ''));
  const text = (kind: string) => parts.find((part) => part.type.startsWith(kind))?.content.toString('utf8') ?? '';
  return {
    subject: decodeWords(headers.subject ?? ''),
    text: text('text/plain'),
    html: text('text/html'),
    headers,
    inline: parts.flatMap(({ type, cid, content }) => (cid ? [{ type, cid, content }] : [])),
  };
}

export interface TestMailServerOptions {
  /** How long the server takes to accept each mail after its data arrived: a slow mail server. */
  acceptDelayMs?: number;
}

/** A real SMTP server on loopback that keeps what it receives, for tests. */
export async function startTestMailServer(
  port = 0,
  { acceptDelayMs = 0 }: TestMailServerOptions = {},
): Promise<TestMailServer> {
  const mails: CaughtMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust, no login to configure.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (acceptDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptDelayMs));
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((address) => address.address),
          ...parseMail(Buffer.concat(chunks).toString('utf8')),
        });
        for (const wake of waiting) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    waitFor(address, skip = 0, timeoutMs = 5_000) {
      const find = () => mails.filter((mail) => mail.to.includes(address))[skip];
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find();
          if (!mail) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`No mail to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
