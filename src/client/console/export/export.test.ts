import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as nodeCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';
import { crc32, zipOf } from './zip.ts';

describe('the analytics export', () => {
  it('writes CSV that quotes what needs quoting and defuses formulas', () => {
    expect(
      toCsv([
        ['Page', 'Visitors'],
        ['/th/เกี่ยวกับ', 3],
        ['a, "b"', 0],
        ['=HYPERLINK("x")', null],
      ]),
    ).toBe('\uFEFFPage,Visitors\r\n/th/เกี่ยวกับ,3\r\n"a, ""b""",0\r\n"\'=HYPERLINK(""x"")",\r\n');
  });

  it('computes the CRC of ZIP entries as zlib does', () => {
    const data = new TextEncoder().encode('สวัสดี, hello');
    expect(crc32(data)).toBe(nodeCrc32(data));
  });

  it('makes a ZIP that unzip reads back, names in UTF-8 included', () => {
    const files = [
      { name: 'pages.csv', text: toCsv([['Page'], ['/en']]) },
      { name: 'ภาษา.csv', text: toCsv([['ภาษา'], ['ไทย']]) },
    ];
    const folder = mkdtempSync(join(tmpdir(), 'zip-'));
    writeFileSync(join(folder, 'all.zip'), zipOf(files));
    execFileSync('python3', ['-m', 'zipfile', '-e', join(folder, 'all.zip'), join(folder, 'out')]);
    for (const file of files) expect(readFileSync(join(folder, 'out', file.name), 'utf8')).toBe(file.text);
  });
});
