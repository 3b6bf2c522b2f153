import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How `npm run serve` starts the server: the environment it sets before Node starts (settings the
 * C library and Node read only at start) and Node's arguments. The cluster test and
 * `npm run bench:memory` start the server this way, and deploy/site@.service must too (a test holds
 * them together), so that what is measured and tested is what is deployed.
 */
export interface ServeCommand {
  env: Record<string, string>;
  args: string[];
}

/** Reads the `serve` script of the package.json in `root`: `NAME=value … node <args…>`. */
export function serveCommand(root: string): ServeCommand {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = (scripts.serve ?? '').trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (
    let match = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(words[0] ?? '');
    match;
    match = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(words[0] ?? '')
  ) {
    env[match[1] as string] = match[2] as string;
    words.shift();
  }
  const [command, ...args] = words;
  if (command !== 'node' || args.length === 0) {
    throw new Error(`npm run serve is not "[NAME=value …] node <file>": ${scripts.serve}`);
  }
  return { env, args };
}
