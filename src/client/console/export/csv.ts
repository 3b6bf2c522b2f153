/**
 * A CSV file (RFC 4180, CRLF) with a byte order mark, so that spreadsheet programs read the Thai
 * and accented text as UTF-8. A text cell that a spreadsheet would take for a formula (a campaign
 * name can be anything a link said) is prefixed with an apostrophe.
 */
export function toCsv(rows: (string | number | null)[][]): string {
  const cell = (value: string | number | null) => {
    if (value === null) return '';
    if (typeof value === 'number') return String(value);
    const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `\uFEFF${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
