import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import { StreamDice, seedGenerator } from '../engine/dice/index.js';

/**
 * The random numbers of a paired comparison (common random numbers), trial by trial.
 *
 * The baseline reads the seed's streams exactly as `crucible run` does (shard k on stream k: the
 * seed's generator jumped k × 2⁶⁴ draws). Each trial's numbers are kept on a tape; the variant
 * rereads the tape from the trial's first number and, if it needs more than the baseline drew,
 * draws them from the variant's own stream — never from the numbers the next baseline trial will
 * read. So trial t of both sides starts from the same numbers, while every trial's randomness is
 * its own: consecutive paired differences are independent, as the paired t test assumes.
 */

/**
 * xoroshiro128+'s long-jump polynomial (Blackman & Vigna, xoroshiro128plus.c: 2⁹⁶ draws ahead),
 * { 0xd2a98b26625eee7b, 0xdddf9b1090aa7ac1 }, in pure-rand's layout: each 64-bit word's low half
 * first, as pure-rand writes the 2⁶⁴ jump.
 */
const LONG_JUMP = [0x625eee7b, 0xd2a98b26, 0x90aa7ac1, 0xdddf9b10] as const;

/**
 * `generator` 2⁹⁶ draws ahead, a new generator (pure-rand's `jump` algorithm with the long-jump
 * polynomial; test/analysis/compare-calibration.test.ts checks it against the transition matrix
 * raised to 2⁹⁶).
 */
export function longJumped(generator: JumpableRandomGenerator): JumpableRandomGenerator {
  let [s01, s00, s11, s10] = generator.getState() as [number, number, number, number];
  let n01 = 0;
  let n00 = 0;
  let n11 = 0;
  let n10 = 0;
  for (const word of LONG_JUMP) {
    for (let mask = 1; mask !== 0; mask <<= 1) {
      if ((word & mask) !== 0) {
        n01 ^= s01;
        n00 ^= s00;
        n11 ^= s11;
        n10 ^= s10;
      }
      const a0 = s10 ^ s00;
      const a1 = s11 ^ s01;
      const old00 = s00;
      const old01 = s01;
      s00 = (old00 << 24) ^ (old01 >>> 8) ^ a0 ^ (a0 << 16);
      s01 = (old01 << 24) ^ (old00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16));
      s10 = (a1 << 5) ^ (a0 >>> 27);
      s11 = (a0 << 5) ^ (a1 >>> 27);
    }
  }
  return xoroshiro128plusFromState([n01, n00, n11, n10]);
}

/**
 * The variant's own stream `k` for a seed: the seed's generator 2⁹⁶ draws ahead, then jumped k
 * times like the baseline's streams, so shards stay independent of how work is split. The
 * baseline's stream k starts k × 2⁶⁴ draws in; it would take 2³² shards (2⁴⁸ trials, past the
 * 10¹² trials a run may ask for) to reach these numbers, so no baseline of the seed reads them.
 */
export function variantStreamGenerator(seed: number, stream: number): JumpableRandomGenerator {
  const rng = longJumped(seedGenerator(seed));
  for (let i = 0; i < stream; i++) rng.jump();
  return rng;
}

/**
 * Stream dice for both sides of a paired trial. Every random number a StreamDice gives passes
 * through `next()` (every die, pool, table pick and chance is made from it), so the tape of the
 * baseline's `next()` values is the whole of its trial's randomness.
 */
export class PairedDice extends StreamDice {
  private tape = new Int32Array(1024);
  private length = 0;
  private position = 0;
  /** True while the variant plays: `next()` rereads the tape, then draws from `own`. */
  private replaying = false;

  private readonly own: StreamDice;

  /** `baseline`: the run's stream (shard k: stream k); `own`: the variant's stream of the same shard. Neither is advanced. */
  constructor(baseline: JumpableRandomGenerator, own: JumpableRandomGenerator) {
    super(baseline);
    this.own = new StreamDice(own);
  }

  override next(): number {
    if (this.replaying) return this.position < this.length ? (this.tape[this.position++] as number) : this.own.next();
    const value = super.next();
    if (this.length === this.tape.length) {
      const longer = new Int32Array(this.tape.length * 2);
      longer.set(this.tape);
      this.tape = longer;
    }
    this.tape[this.length++] = value;
    return value;
  }

  /** The baseline's trial starts: its numbers come from the stream, in order, and are kept. */
  startBaseline(): void {
    this.replaying = false;
    this.length = 0;
  }

  /** The variant's trial starts: the baseline's numbers of this trial from the first, then its own. */
  startVariant(): void {
    this.replaying = true;
    this.position = 0;
  }
}
