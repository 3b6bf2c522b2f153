/**
 * An IP address as 32-bit words, most significant first: one word for IPv4, four for IPv6. The
 * country table compares addresses word by word, so parsing must be strict and allocation-light
 * (it runs on every stored event and on each of the table's 1.4 million bounds while it loads).
 */
export type AddressWords = [number] | [number, number, number, number];

const DIGITS = /^\d{1,3}$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** `a.b.c.d` as an unsigned 32-bit number, or null. Leading zeros are refused (they read as octal elsewhere). */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!DIGITS.test(part) || (part.length > 1 && part[0] === '0')) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

/** Eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail allowed), or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === '') return [];
    const groups: number[] = [];
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIPv4(part);
        if (v4 === null) return null;
        groups.push(v4 >>> 16, v4 & 0xffff);
      } else if (HEX_GROUP.test(part)) {
        groups.push(Number.parseInt(part, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0] as string);
  if (head === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const tail = groupsOf(halves[1] as string);
  // `::` stands for at least one group of zeros.
  if (tail === null || head.length + tail.length > 7) return null;
  return [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
}

/** An IPv6 address (without a zone, `fe80::1%eth0`) as four words, or null. */
export function parseIPv6(text: string): [number, number, number, number] | null {
  const groups = ipv6Groups(text);
  if (groups === null) return null;
  const word = (i: number) => ((groups[i] as number) * 0x10000 + (groups[i + 1] as number)) >>> 0;
  return [word(0), word(2), word(4), word(6)];
}

/**
 * A client's address as the country table reads it: IPv4 as one word, IPv6 as four. An IPv4
 * address written as IPv6 (`::ffff:1.2.3.4`, which a dual-stack socket reports) is read as IPv4.
 */
export function addressWords(text: string): AddressWords | null {
  const address = text.trim();
  if (!address.includes(':')) {
    const v4 = parseIPv4(address);
    return v4 === null ? null : [v4];
  }
  const zone = address.indexOf('%');
  const v6 = parseIPv6(zone === -1 ? address : address.slice(0, zone));
  if (v6 === null) return null;
  if (v6[0] === 0 && v6[1] === 0 && v6[2] === 0xffff) return [v6[3]];
  return v6;
}
