import { platform } from '../input/platform.js';

/**
 * The seed of one run of an analysis that plays many scenarios (a roster's matchups, a cost fit):
 * derived from the analysis's seed and what the run plays, so that every run draws its own random
 * numbers. Runs that shared one seed would share their dice: the two seatings of a pairing, or a
 * unit's games against different opponents, would rise and fall together, and every interval that
 * treats them as independent samples (a seating mean, a strength, a cost) would be wrong. With a
 * seed per run, nothing depends on the order of the entries or of the runs, and a run is
 * reproduced by `crucible run` of its scenario with the seed the results record.
 *
 * The key names the run: its situation, and each side's unit and count in seat order. Two runs
 * with the same key are the same game, and share their dice on purpose (a unit against an
 * identical copy of itself is a mirror: exactly even over both seatings).
 *
 * SHA-256 of the seed and the key, its first 32 bits (the scenarios' seeds are 32-bit): two
 * different runs share a seed with probability 2⁻³², which among the 39,204 runs of a 198-unit
 * round robin happens somewhere with probability about 0.18 — two unrelated games on the same dice,
 * which biases nothing.
 */
export function runSeed(seed: number, key: readonly (string | number)[]): number {
  const text = `crucible-run-seed\u0000${seed}\u0000${key.map(String).join('\u0000')}`;
  return Number.parseInt(platform().sha256(text).slice(0, 8), 16);
}
