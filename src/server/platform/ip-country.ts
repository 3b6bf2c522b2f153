import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type AddressWords, addressWords } from './ip-address.ts';
import { errorFields, log } from './log.ts';

/**
 * The country of a client address, from DB-IP's IP to Country Lite (CC BY 4.0, shipped by the
 * `@ip-location-db/dbip-country` package; decision 215). Read once per process, on the first
 * look-up, into sorted typed arrays: each range's first address and its country, with the gaps
 * between ranges (private, reserved and unassigned space) as ranges of no country. A look-up is a
 * binary search; the address itself is never kept.
 */

const PACKAGE = '@ip-location-db/dbip-country';
/** Lines parsed between two turns of the event loop while the table loads, so requests keep flowing. */
const LINES_PER_TURN = 5_000;

interface RangeTable {
  /** Words per address: 1 for IPv4, 4 for IPv6. */
  width: 1 | 4;
  /** The first address of each range, `width` words each, ascending. */
  starts: Uint32Array;
  /** Each range's index in `countries`; 0 is no country. */
  codes: Uint8Array;
}

export interface CountryTables {
  v4: RangeTable;
  v6: RangeTable;
  /** ISO 3166-1 alpha-2 codes by index; index 0 is none. */
  countries: string[];
}

/** `words` plus one, in place; false when it wrapped past the last address. */
function increment(words: Uint32Array): boolean {
  for (let i = words.length - 1; i >= 0; i--) {
    if (words[i] !== 0xffffffff) {
      words[i] = (words[i] as number) + 1;
      return true;
    }
    words[i] = 0;
  }
  return false;
}

function compare(a: ArrayLike<number>, b: ArrayLike<number>, aAt = 0, bAt = 0, width = a.length): number {
  for (let i = 0; i < width; i++) {
    const difference = (a[aAt + i] as number) - (b[bAt + i] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}

const COMMA = 0x2c;
const NEWLINE = 0x0a;
const DOT = 0x2e;
const COLON = 0x3a;

/** The value of a hexadecimal digit (decimal ones included), or -1. */
function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

const unreadable = (at: number) => new Error(`${PACKAGE}: unreadable data at byte ${at}`);

/** A dotted IPv4 address from `at` up to a comma, into `into[0]`; returns where the comma is. */
function readIPv4(bytes: Uint8Array, at: number, into: Uint32Array): number {
  let value = 0;
  let part = 0;
  let dots = 0;
  for (let byte = bytes[at] as number; byte !== COMMA; byte = bytes[++at] as number) {
    if (byte === DOT) {
      value = value * 256 + part;
      part = 0;
      dots++;
    } else if (byte >= 0x30 && byte <= 0x39) {
      part = part * 10 + byte - 0x30;
      if (part > 255) throw unreadable(at);
    } else {
      throw unreadable(at);
    }
  }
  if (dots !== 3) throw unreadable(at);
  into[0] = value * 256 + part;
  return at;
}

const groups = new Uint16Array(8);

/** An IPv6 address (hexadecimal groups, at most one `::`) from `at` up to a comma, into `into`; returns where the comma is. */
function readIPv6(bytes: Uint8Array, at: number, into: Uint32Array): number {
  let count = 0;
  let gap = -1;
  let group = 0;
  let digits = 0;
  for (let byte = bytes[at] as number; byte !== COMMA; byte = bytes[++at] as number) {
    if (byte === COLON) {
      if (digits > 0) {
        if (count === 8) throw unreadable(at);
        groups[count++] = group;
      } else if (at === 0 || bytes[at - 1] !== COLON) {
        // A colon without digits before it is only the second half of `::` (or starts one).
        if (bytes[at + 1] !== COLON) throw unreadable(at);
      }
      if (bytes[at + 1] === COLON) {
        if (gap >= 0) throw unreadable(at);
        gap = count;
        at++;
      }
      group = 0;
      digits = 0;
    } else {
      const digit = hexDigit(byte);
      if (digit < 0 || ++digits > 4) throw unreadable(at);
      group = group * 16 + digit;
    }
  }
  if (digits > 0) {
    if (count === 8) throw unreadable(at);
    groups[count++] = group;
  }
  if (gap >= 0) {
    if (count > 7) throw unreadable(at);
    const moved = count - gap;
    groups.copyWithin(8 - moved, gap, count);
    groups.fill(0, gap, 8 - moved);
  } else if (count !== 8) {
    throw unreadable(at);
  }
  for (let i = 0; i < 4; i++) into[i] = (groups[2 * i] as number) * 0x10000 + (groups[2 * i + 1] as number);
  return at;
}

/**
 * The table of one of the package's CSV files (`first,last,CC` per line, ascending, inclusive
 * bounds): neighbouring ranges of one country are merged, and a gap becomes a range of no country.
 * Read byte by byte, never as strings: splitting the 700,000 lines into strings took 4.8 s on the
 * busy two-core host, this about 0.4 s of processor time for both files. (Client addresses are read by the
 * strict `addressWords`; this reader trusts the files' shape, and checks their order.)
 */
async function tableOf(bytes: Uint8Array, width: 1 | 4, countries: Map<number, number>): Promise<RangeTable> {
  const read = width === 1 ? readIPv4 : readIPv6;
  let lines = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) {
    // Counting the lines of the IPv6 file alone took 25 to 60 ms in one go.
    if (++lines % (10 * LINES_PER_TURN) === 0) await nextTurn();
  }
  // Each line adds at most a gap and a range, and the end at most one more gap.
  const most = 2 * lines + 1;
  const starts = new Uint32Array(most * width);
  const codes = new Uint8Array(most);
  const start = new Uint32Array(width);
  const end = new Uint32Array(width);
  // The address after the last range read (all zeros at first); `ended` once a range reached the last address.
  const next = new Uint32Array(width);
  let ended = false;
  let count = 0;
  let lastCode = -1;
  const push = (first: Uint32Array, code: number) => {
    if (code === lastCode) return;
    if (count === most) throw unreadable(0);
    starts.set(first, count * width);
    codes[count++] = code;
    lastCode = code;
  };
  let at = 0;
  for (let line = 1; at < bytes.length; line++) {
    if (line % LINES_PER_TURN === 0) await nextTurn();
    at = read(bytes, at, start) + 1;
    at = read(bytes, at, end) + 1;
    const first = bytes[at] as number;
    const second = bytes[at + 1] as number;
    if (first < 0x41 || first > 0x5a || second < 0x41 || second > 0x5a || bytes[at + 2] !== NEWLINE) {
      throw unreadable(at);
    }
    at += 3;
    const order = compare(start, next);
    if (ended || order < 0 || compare(end, start) < 0) throw new Error(`${PACKAGE}: line ${line} is out of order`);
    if (order > 0) push(next, 0);
    const key = first * 256 + second;
    let code = countries.get(key);
    if (code === undefined) {
      code = countries.size + 1;
      if (code > 255) throw new Error(`${PACKAGE}: more than 255 countries`);
      countries.set(key, code);
    }
    push(start, code);
    next.set(end);
    ended = !increment(next);
  }
  if (!ended) push(next, 0);
  return { width, starts: starts.slice(0, count * width), codes: codes.slice(0, count) };
}

const fileOf = (name: string) => createRequire(import.meta.url).resolve(`${PACKAGE}/${name}`);

/** Reads and compacts both files (IPv4 and IPv6); about a second of work, spread over many turns. */
export async function loadCountryTables(): Promise<CountryTables> {
  const codes = new Map<number, number>();
  const v4 = await tableOf(await readFile(fileOf('dbip-country-ipv4.csv')), 1, codes);
  const v6 = await tableOf(await readFile(fileOf('dbip-country-ipv6.csv')), 4, codes);
  return { v4, v6, countries: ['', ...[...codes.keys()].map((key) => String.fromCharCode(key >> 8, key & 255))] };
}

/** The country of `words` in `tables`: the last range that starts at or before it. */
export function countryIn(tables: CountryTables, words: AddressWords): string | null {
  const table = words.length === 1 ? tables.v4 : tables.v6;
  const { starts, codes, width } = table;
  let low = 0;
  let high = codes.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (compare(starts, words, middle * width, 0, width) <= 0) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found === -1 ? null : tables.countries[codes[found] as number] || null;
}

let loading: Promise<CountryTables | null> | undefined;

/** The tables, loaded on first use; null (no countries) if the package cannot be read, which is logged once. */
function tables(): Promise<CountryTables | null> {
  loading ??= loadCountryTables().catch((error: unknown) => {
    log.error(errorFields(error), 'The IP-to-country table could not be loaded: events are kept without a country');
    return null;
  });
  return loading;
}

/**
 * The ISO 3166-1 alpha-2 code of the country `address` belongs to, or null for a private, reserved,
 * unknown or malformed address. The first call waits for the table to load.
 */
export async function countryOf(address: string): Promise<string | null> {
  const words = addressWords(address);
  if (words === null) return null;
  const loaded = await tables();
  return loaded ? countryIn(loaded, words) : null;
}
