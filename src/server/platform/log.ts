import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/** What LOG_LEVEL may say, most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What every line written while an API request runs carries, so its lines can be found together. */
export interface RequestFields {
  /** This request's id, also sent back as X-Request-Id. */
  reqId: string;
  /** The W3C trace the request belongs to, when the browser or the server's tracing gave one. */
  traceId?: string;
}

const requestFields = new AsyncLocalStorage<RequestFields>();

/** Runs `fn` (a request's handling) so that every line logged inside it carries `fields`. */
export const withRequestFields = <T>(fields: RequestFields, fn: () => T): T => requestFields.run(fields, fn);

/** The fields of the request under way, for code that adds to them (the trace id, once a span exists). */
export const currentRequestFields = (): RequestFields | undefined => requestFields.getStore();

/**
 * Something shaped like an email address. Lines never name a person's address: messages the server
 * writes itself avoid them, and this catches those a library puts in an error (an SMTP server
 * refusing a recipient, a URL with credentials).
 */
const EMAIL_LIKE = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[A-Za-z]{2,}/g;

/** Text as a log line may carry it: email addresses replaced by `[email]`. */
export const scrub = (text: string): string => text.replace(EMAIL_LIKE, '[email]');

/** An address shown only in part (`j…@example.com`), where a reader needs a hint of whose mail it is. */
export function maskedEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 1 ? '…' : `${address.slice(0, 1)}…${address.slice(at)}`;
}

/** Longest message a log line repeats: a driver's error can carry a whole statement and its data. */
const MAX_LOGGED_MESSAGE = 200;

/**
 * An unexpected error as a few short fields: its kind, its code, its message cut short and scrubbed,
 * and the place it was thrown. A stack trace or an error's own fields (a database error holds the
 * statement's parameters) could run to many kilobytes per request, and a client could make that
 * happen at will.
 */
export function errorFields(error: unknown): {
  err: { type: string; code?: string; message: string; at?: string; cause?: string };
} {
  const fault = error instanceof Error ? error : new Error(String(error));
  const code = (fault as { code?: unknown }).code;
  // A network failure says only "fetch failed"; what failed (refused, timed out, no such host) is its cause.
  const cause = fault.cause instanceof Error ? fault.cause : undefined;
  const causeCode = (cause as { code?: unknown } | undefined)?.code;
  const at = fault.stack
    ?.split('\n')
    .find((line) => /^\s+at /.test(line))
    ?.trim()
    .slice(0, MAX_LOGGED_MESSAGE);
  return {
    err: {
      type: fault.name,
      ...(typeof code === 'string' ? { code } : {}),
      message: scrub(fault.message.replace(/\s+/g, ' ').slice(0, MAX_LOGGED_MESSAGE)),
      ...(at ? { at } : {}),
      ...(cause
        ? {
            cause: scrub(
              `${typeof causeCode === 'string' ? `${causeCode}: ` : ''}${cause.message.replace(/\s+/g, ' ')}`.slice(
                0,
                MAX_LOGGED_MESSAGE,
              ),
            ),
          }
        : {}),
    },
  };
}

// Written synchronously: a line logged just before the process exits is never lost.
const stdout = pino.destination({ dest: 1, sync: true });
let sink: (line: string) => void = (line) => stdout.write(line);

/**
 * The server's log: one JSON object per line on standard output (`time`, `level`, `msg`, and the
 * request's `reqId` and `traceId` while one runs), at the level LOG_LEVEL sets (see setLogLevel).
 * Nothing personal goes in: no client address, no email address in clear, no code or token; the
 * one exception is the text of mail kept without SMTP (platform/mail/mailer.ts).
 */
export const log = pino(
  {
    level: 'info',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => requestFields.getStore() ?? {},
    hooks: {
      logMethod(args, method) {
        // The message is the first string argument (after a fields object, if any).
        const at = typeof args[0] === 'string' ? 0 : 1;
        if (typeof args[at] === 'string') args[at] = scrub(args[at]);
        method.apply(this, args as Parameters<typeof method>);
      },
    },
  },
  { write: (line: string) => sink(line) },
);

/** Sets the level from the environment (LOG_LEVEL), once at start. */
export function setLogLevel(level: LogLevel): void {
  log.level = level;
}

/**
 * Sends the log's lines to `write` (and sets its level) until the returned function is called: for
 * tests, which read what the server would have written.
 */
export function logTo(write: (line: string) => void, level: LogLevel = 'info'): () => void {
  const [previousSink, previousLevel] = [sink, log.level];
  sink = write;
  log.level = level;
  return () => {
    sink = previousSink;
    log.level = previousLevel;
  };
}
