/**
 * Unique visitors over several days, estimated from a sketch per day (HyperLogLog, decision 253).
 * A visitor's id is hashed into one of REGISTERS registers and a rank, the position of the lowest
 * set bit of the rest of the hash; a register holds the highest rank of its visitors. It is stored
 * as RANKS bits with the bit of that rank set, so that the sketches of several days merge in SQL
 * with bit_or: the highest bit set after the merge is the higher rank. The standard error is
 * 1.04 / √512, about 4.6 %; below a few hundred visitors the estimate is near exact (linear
 * counting of empty registers).
 */
const REGISTERS = 512;
const RANKS = 16;
export const SKETCH_LENGTH = REGISTERS * RANKS;

/**
 * SQL: the bit a visitor sets in a sketch, from `hash`, a bigint expression of
 * `hashtextextended(distinct_id, 0)`. Rank 1 is the hash's bit 9 set, rank 16 the fifteen before it
 * clear (or all sixteen).
 */
export const sketchBitSql = (hash: string) =>
  `(((${hash}) & ${REGISTERS - 1}) * ${RANKS}
   + coalesce(nullif(strpos(reverse((((${hash}) >> 9) & ${2 ** RANKS - 1})::integer::bit(${RANKS})::text), '1'), 0), ${RANKS}) - 1)::integer`;

/** A sketch as its registers: each the highest rank seen, 0 for none. */
export type Registers = Uint8Array;

/** The registers of the visitors whose bits (sketchBitSql) are `bits`; a bit may come more than once. */
export function registersFromBits(bits: Iterable<number>): Registers {
  const registers = new Uint8Array(REGISTERS);
  for (const bit of bits) {
    const register = Math.floor(bit / RANKS);
    registers[register] = Math.max(registers[register] as number, (bit % RANKS) + 1);
  }
  return registers;
}

/** A sketch as PostgreSQL reads a bit string: each register's highest rank is enough for bit_or to merge. */
export function sketchOf(registers: Registers): string {
  const bits = new Array<string>(SKETCH_LENGTH).fill('0');
  registers.forEach((rank, register) => {
    if (rank > 0) bits[register * RANKS + rank - 1] = '1';
  });
  return bits.join('');
}

/** The registers of a sketch as PostgreSQL writes a bit string ("0100…"). */
export function registersOf(bits: string): Registers {
  if (bits.length !== SKETCH_LENGTH) throw new Error(`A visitor sketch has ${SKETCH_LENGTH} bits, not ${bits.length}`);
  const registers = new Uint8Array(REGISTERS);
  for (let register = 0; register < REGISTERS; register++) {
    const ranks = bits.slice(register * RANKS, (register + 1) * RANKS);
    registers[register] = ranks.lastIndexOf('1') + 1;
  }
  return registers;
}

/** Merges `more` into `into`: the sketch of both sets of visitors. */
export function mergeInto(into: Registers, more: Registers): Registers {
  for (let register = 0; register < REGISTERS; register++) {
    into[register] = Math.max(into[register] as number, more[register] as number);
  }
  return into;
}

const ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

/**
 * How many visitors the registers hold, kept between `atLeast` and `atMost` (the largest daily
 * count and their sum are both exact: no estimate may leave them).
 */
export function estimateVisitors(registers: Registers, atLeast: number, atMost: number): number {
  let sum = 0;
  let empty = 0;
  for (const rank of registers) {
    sum += 2 ** -rank;
    if (rank === 0) empty++;
  }
  let estimate = (ALPHA * REGISTERS * REGISTERS) / sum;
  if (estimate <= 2.5 * REGISTERS && empty > 0) estimate = REGISTERS * Math.log(REGISTERS / empty);
  return Math.min(atMost, Math.max(atLeast, Math.round(estimate)));
}
