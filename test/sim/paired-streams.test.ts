import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { seedGenerator, streamGenerator } from '../../engine/dice/index.js';
import { longJumped, variantStreamGenerator } from '../../sim/paired-dice.js';

/**
 * The variant's own streams in a paired comparison start 2⁹⁶ draws into the seed's sequence, past
 * anything a baseline of the seed reads (its stream k starts k × 2⁶⁴ in). The long jump is checked
 * against linear algebra: xoroshiro128+'s step is linear over GF(2) on its 128 state bits, so
 * n steps are the step's 128 × 128 bit matrix raised to n, here by squaring — first for 2⁶⁴, where
 * pure-rand's own `jump` must agree (the oracle is right), then for 2⁹⁶.
 */

type State = Int32Array; // 4 words, pure-rand's order
/** A 128 × 128 bit matrix by columns: column j is the image of state bit j. */
type Matrix = State[];

const step = (state: State): State => {
  const rng = xoroshiro128plusFromState([...state]);
  rng.next();
  return Int32Array.from(rng.getState());
};

function apply(matrix: Matrix, state: State): State {
  const out = new Int32Array(4);
  for (let j = 0; j < 128; j++) {
    if ((((state[j >> 5] as number) >>> (j & 31)) & 1) === 0) continue;
    const column = matrix[j] as State;
    for (let w = 0; w < 4; w++) out[w] = (out[w] as number) ^ (column[w] as number);
  }
  return out;
}

const square = (matrix: Matrix): Matrix => matrix.map((column) => apply(matrix, column));

function stepMatrixToThePowerOfTwo(exponent: number): Matrix {
  let matrix: Matrix = Array.from({ length: 128 }, (_, j) => {
    const unit = new Int32Array(4);
    unit[j >> 5] = 1 << (j & 31);
    return step(unit);
  });
  for (let i = 0; i < exponent; i++) matrix = square(matrix);
  return matrix;
}

describe("the variant's own streams", () => {
  const starts = [1, 20261122, 0xffffffff].map((seed) => Int32Array.from(seedGenerator(seed).getState()));

  it("the step matrix to 2⁶⁴ is pure-rand's jump; to 2⁹⁶ it is longJumped", () => {
    const to64 = stepMatrixToThePowerOfTwo(64);
    const to96 = Array.from({ length: 32 }).reduce<Matrix>((matrix) => square(matrix), to64);
    for (const start of starts) {
      const jumped = xoroshiro128plusFromState([...start]);
      jumped.jump();
      expect(Array.from(apply(to64, start))).toEqual([...jumped.getState()]);
      expect(Array.from(apply(to96, start))).toEqual([...longJumped(xoroshiro128plusFromState([...start])).getState()]);
    }
  });

  it('stream k of a variant is the long-jumped seed jumped k times; the generator passed in is left alone', () => {
    const base = seedGenerator(20261122);
    const before = [...base.getState()];
    const own = longJumped(base);
    expect([...base.getState()]).toEqual(before);
    own.jump();
    own.jump();
    expect([...variantStreamGenerator(20261122, 2).getState()]).toEqual([...own.getState()]);
    expect([...variantStreamGenerator(20261122, 0).getState()]).not.toEqual([...streamGenerator(20261122, 0).getState()]);
  });
});
