import type { OutcomeTable } from './outcome-table.js';

/**
 * Dice: the only source of randomness a rules kernel sees.
 *
 * Kernels take a `Dice` as a parameter, so tests can force rolls with `ScriptedDice` and runs use
 * `StreamDice` over a seeded pure-rand generator. `d6Packed(n)` returns n D6 packed as base-6 digits
 * (digit i = face of die i − 1), which lets a kernel score up to six dice with one random draw and
 * one table look-up (see pool.ts).
 */
export interface Dice {
  /** One D6, 1..6. */
  d6(): number;
  /** One D10, 1..10. */
  d10(): number;
  /** n D6 (1 ≤ n ≤ 6) packed as base-6 digits: a uniform integer in [0, 6^n). */
  d6Packed(n: number): number;
  /** n D10 (1 ≤ n ≤ 9) packed as decimal digits (digit i = face of die i − 1): a uniform integer in [0, 10^n). */
  d10Packed(n: number): number;
  /**
   * True with probability `probability` (a scenario's stated chance, not a die): on stream dice one
   * packed pool, rarely two (chance.ts); enumerated exactly as two branches.
   */
  chance(probability: number): boolean;
  /**
   * One outcome of a discrete distribution, drawn whole (the fast path: a pooled attack's Wounds, a
   * strike's hits after saves): one 32-bit draw on stream dice, one branch per outcome enumerated.
   */
  pick(table: OutcomeTable): number;
}

/** 6^0..6^6, the sizes of packed pools. */
export const POW6: readonly number[] = [1, 6, 36, 216, 1296, 7776, 46656];
export const MAX_PACKED_DICE = 6;
/** 10^0..10^9, the sizes of packed D10 pools. */
export const POW10: readonly number[] = [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
export const MAX_PACKED_D10 = 9;

/** Faces of die `i` (0-based) in a packed pool. */
export function unpackDie(packed: number, i: number): number {
  return (Math.floor(packed / (POW6[i] ?? 1)) % 6) + 1;
}

/** Pack faces (1..6) into a base-6 integer: the inverse of `unpackDie`. */
export function packDice(faces: readonly number[]): number {
  let packed = 0;
  for (let i = faces.length - 1; i >= 0; i--) packed = packed * 6 + ((faces[i] ?? 1) - 1);
  return packed;
}
