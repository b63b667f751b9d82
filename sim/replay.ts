import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { StreamDice, seedGenerator, streamGenerator } from '../engine/dice/index.js';
import type { Kernel } from '../engine/kernel.js';
import { MAX_REPLAY_TRIAL } from '../engine/run-limits.js';
import { SHARD_TRIALS } from './run.js';

/**
 * Replaying one trial of a run (`crucible replay`): trial T of a run with seed S is trial
 * T mod SHARD_TRIALS of shard ⌊T / SHARD_TRIALS⌋, which draws from the seed's stream of that number
 * (see run.ts). Replaying runs the shard's earlier trials untraced, to advance its dice exactly as
 * the run did, then trial T with the kernel's trace on.
 */

export { MAX_REPLAY_TRIAL };

export interface ReplayedTrial<TraceEvent> {
  readonly seed: number;
  readonly trial: number;
  readonly shard: number;
  /** Trials of the shard run before this one, untraced. */
  readonly trialInShard: number;
  /** What the kernel reported, in order (empty for a kernel that cannot trace). */
  readonly events: TraceEvent[];
  /** The metric row the trial wrote: the row the run tallied for it. */
  readonly row: Int32Array;
}

export function replayTrial<TraceEvent>(kernel: Kernel<TraceEvent>, seed: number, trial: number): ReplayedTrial<TraceEvent> {
  if (!Number.isSafeInteger(trial) || trial < 0 || trial > MAX_REPLAY_TRIAL) {
    throw new RangeError(`trial must be an integer from 0 to ${MAX_REPLAY_TRIAL}, got ${trial}`);
  }
  const shard = Math.floor(trial / SHARD_TRIALS);
  const trialInShard = trial % SHARD_TRIALS;
  const dice = new StreamDice(shardGenerator(seed, shard));
  const row = new Int32Array(kernel.metrics.length);
  const events: TraceEvent[] = [];
  kernel.setTrace?.(null);
  for (let t = 0; t < trialInShard; t++) kernel.trial(dice, row);
  kernel.setTrace?.({ event: (event) => events.push(event) });
  try {
    kernel.trial(dice, row);
  } finally {
    kernel.setTrace?.(null);
  }
  return { seed, trial, shard, trialInShard, events, row };
}

/** Up to this many shards, jump one stream at a time: the very code a run uses (run.ts). */
const STEPWISE_JUMPS = 1024;
const STATE_BITS = 128;

/**
 * The generator of shard `shard` for `seed`: `streamGenerator(seed, shard)`, but for a far shard
 * (trial 10¹⁵ is shard 1.5·10¹⁰, hours of single jumps) in O(log shard) steps. xoroshiro128+'s jump
 * is linear over GF(2), so jumping k times is the k-th power of a 128×128 bit matrix, whose
 * columns are pure-rand's own jump applied to each one-bit state.
 */
export function shardGenerator(seed: number, shard: number): JumpableRandomGenerator {
  if (shard <= STEPWISE_JUMPS) return streamGenerator(seed, shard);
  let power: Int32Array = jumpMatrix();
  let state: Int32Array = Int32Array.from(seedGenerator(seed).getState());
  for (let k = shard; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) state = applyMatrix(power, state);
    if (k > 1) power = multiplyMatrices(power, power);
  }
  return xoroshiro128plusFromState([...state]);
}

/** A 128×128 bit matrix as 128 columns of 4 int32 words (the state's layout); column b at 4b. */
function jumpMatrix(): Int32Array {
  const matrix = new Int32Array(STATE_BITS * 4);
  for (let bit = 0; bit < STATE_BITS; bit++) {
    const unit = [0, 0, 0, 0];
    unit[bit >>> 5] = 1 << (bit & 31);
    const generator = xoroshiro128plusFromState(unit);
    generator.jump();
    matrix.set(generator.getState(), bit * 4);
  }
  return matrix;
}

/** matrix · state: the XOR of the columns of the state's set bits. */
function applyMatrix(matrix: Int32Array, state: Int32Array, into = new Int32Array(4), at = 0): Int32Array {
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let w3 = 0;
  for (let bit = 0; bit < STATE_BITS; bit++) {
    if ((((state[at + (bit >>> 5)] as number) >>> (bit & 31)) & 1) === 0) continue;
    w0 ^= matrix[bit * 4] as number;
    w1 ^= matrix[bit * 4 + 1] as number;
    w2 ^= matrix[bit * 4 + 2] as number;
    w3 ^= matrix[bit * 4 + 3] as number;
  }
  into.set([w0, w1, w2, w3], at);
  return into;
}

function multiplyMatrices(left: Int32Array, right: Int32Array): Int32Array {
  const product = new Int32Array(STATE_BITS * 4);
  for (let column = 0; column < STATE_BITS; column++) applyMatrix(left, right, product, column * 4);
  return product;
}
