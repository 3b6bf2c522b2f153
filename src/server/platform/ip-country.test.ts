import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressWords } from './ip-address.ts';
import { type CountryTables, countryIn, countryOf, loadCountryTables } from './ip-country.ts';

describe('reading a client address', () => {
  it.each([
    ['133.1.1.1', [0x85010101]],
    ['0.0.0.0', [0]],
    ['255.255.255.255', [0xffffffff]],
    [' 193.0.0.1 ', [0xc1000001]],
    ['2001:200::1', [0x20010200, 0, 0, 1]],
    ['::', [0, 0, 0, 0]],
    ['::1', [0, 0, 0, 1]],
    ['1::', [0x10000, 0, 0, 0]],
    ['2003:E0:0:0:0:0:0:1', [0x200300e0, 0, 0, 1]],
    ['fe80::1%eth0', [0xfe800000, 0, 0, 1]],
    ['64:ff9b::1.2.3.4', [0x64ff9b, 0, 0, 0x01020304]],
    // What a dual-stack socket reports for an IPv4 client is read as IPv4.
    ['::ffff:133.1.1.1', [0x85010101]],
  ])('reads %s', (text, words) => {
    expect(addressWords(text)).toEqual(words);
  });

  it.each([
    '',
    'unknown',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.-4',
    '1.2.3.4:8080',
    '1..3.4',
    '2001:db8::1::2',
    '2001:db8:1:2:3:4:5:6:7',
    '2001:db8:1:2:3:4:5',
    '1:2:3:4:5:6:7::8',
    '2001:db8::12345',
    'g::1',
    ':1::',
    '[2001:db8::1]',
    '::ffff:1.2.3',
  ])('refuses %j', (text) => {
    expect(addressWords(text)).toBeNull();
  });
});

describe('the country of an address', () => {
  let tables: CountryTables;
  // Both tables are read here, the tests' own and the one countryOf() loads on first use, so that no
  // case pays for a load: on a busy host a load takes seconds (npm run bench:countries measures it).
  beforeAll(async () => {
    [tables] = await Promise.all([loadCountryTables(), countryOf('127.0.0.1')]);
  }, 60_000);

  const countryOfText = (text: string) => {
    const words = addressWords(text);
    return words && countryIn(tables, words);
  };

  it.each([
    ['133.1.1.1', 'JP'],
    ['133.0.0.0', 'JP'],
    ['193.0.0.1', 'NL'],
    ['194.0.0.1', 'DE'],
    ['::ffff:193.0.0.1', 'NL'],
    ['2001:200::1', 'JP'],
    ['2003:e0::1', 'DE'],
    ['2001:67c:2e8::1', 'NL'],
  ])('finds %s in %s', async (address, country) => {
    expect(countryOfText(address)).toBe(country);
    expect(await countryOf(address)).toBe(country);
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.1.1',
    '192.0.2.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fd00::1',
    '2001:db8::1',
    'ff02::1',
    '::ffff:10.0.0.1',
  ])('gives no country for the private or reserved %s', async (address) => {
    expect(await countryOf(address)).toBeNull();
  });

  it.each(['unknown', '', '1.2.3.999', 'not:an:address'])('gives no country for the malformed %j', async (address) => {
    expect(await countryOf(address)).toBeNull();
  });

  it.each([
    ['IPv4', 'dbip-country-ipv4.csv'],
    ['IPv6', 'dbip-country-ipv6.csv'],
  ])('answers the first and last address of the %s ranges as the file says (every 97th line)', async (_, name) => {
    const path = createRequire(import.meta.url).resolve(`@ip-location-db/dbip-country/${name}`);
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines.length).toBeGreaterThan(100_000);
    const checked = lines.filter((_, at) => at % 97 === 0 || at === lines.length - 1);
    const wrong = checked.filter((line) => {
      const [first, last, country] = line.split(',') as [string, string, string];
      return countryOfText(first) !== country || countryOfText(last) !== country;
    });
    expect(wrong).toEqual([]);
  });

  it('keeps the tables compact: a few bytes per range, under 10 MB in all', () => {
    const bytes = [tables.v4, tables.v6].reduce(
      (sum, table) => sum + table.starts.byteLength + table.codes.byteLength,
      0,
    );
    expect(bytes).toBeLessThan(10 * 1024 * 1024);
    expect(tables.countries.every((code, at) => (at === 0 ? code === '' : /^[A-Z]{2}$/.test(code)))).toBe(true);
  });
});
