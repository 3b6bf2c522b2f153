import { type LogLevel, logTo } from '#server/platform/log.ts';

/** One line of the server's log, parsed. */
export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * Takes the server's log lines (in this process) from now until `restore`, instead of standard
 * output: each parsed, which fails the test if a line is not JSON.
 */
export function captureLog(level: LogLevel = 'info') {
  const lines: LogLine[] = [];
  const restore = logTo((line) => {
    lines.push(JSON.parse(line) as LogLine);
  }, level);
  return {
    lines,
    /** The messages logged so far, in order. */
    messages: () => lines.map((line) => line.msg),
    /** Every line as written, for a search through all its fields. */
    text: () => lines.map((line) => JSON.stringify(line)).join('\n'),
    restore,
  };
}
