import fc from 'fast-check';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import {
  atLeast,
  D10Tests,
  type FaceScore,
  POW6,
  PoolScorer,
  packDice,
  ScriptedDice,
  StreamDice,
  seedGenerator,
  streamDice,
  streamGenerator,
  unpackDie,
} from '../../engine/dice/index.js';
import { chiSquareCritical, chiSquareSurvival, uniformChiSquare } from '../helpers/chi-square.js';

const SEED = 20261121;
const ROLLS = 600_000;
/** Significance of each uniformity test: a correct generator fails one with probability 10⁻⁶. */
const ALPHA = 1e-6;

describe('χ² critical values (helpers/chi-square.ts)', () => {
  it('reproduce published tables', () => {
    // NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.4 (upper-tail critical values of χ²), α = 0.001 and 0.01.
    expect(chiSquareCritical(0.001, 5)).toBeCloseTo(20.515, 3);
    expect(chiSquareCritical(0.001, 9)).toBeCloseTo(27.877, 3);
    expect(chiSquareCritical(0.001, 35)).toBeCloseTo(66.619, 3);
    expect(chiSquareCritical(0.01, 5)).toBeCloseTo(15.086, 3);
    expect(chiSquareCritical(0.001, 100)).toBeCloseTo(149.449, 3);
    // α = 10⁻⁶, beyond printed tables: scipy.stats.chi2.isf(1e-6, df) (SciPy 1.17.1).
    expect(chiSquareCritical(ALPHA, 5)).toBeCloseTo(35.888187, 4);
    expect(chiSquareCritical(ALPHA, 9)).toBeCloseTo(44.810938, 4);
    expect(chiSquareCritical(ALPHA, 35)).toBeCloseTo(89.946741, 4);
    expect(chiSquareCritical(ALPHA, 215)).toBeCloseTo(328.326722, 3);
    expect(chiSquareCritical(ALPHA, 1295)).toBeCloseTo(1551.463778, 2);
    expect(chiSquareCritical(ALPHA, 46655) / 48121.437061).toBeCloseTo(1, 7);
    expect(chiSquareSurvival(0, 5)).toBe(1);
  });

  it('have the power to reject a die with a 5% bias at this sample size', () => {
    // Face 6 at 0.175 instead of 1/6, the others sharing the rest: the expected statistic is ≈ 300.
    const biased = Float64Array.from([1, 2, 3, 4, 5, 6], (face) => (face === 6 ? 0.175 : 0.825 / 5) * ROLLS);
    expect(uniformChiSquare(biased)).toBeGreaterThan(chiSquareCritical(ALPHA, 5));
  });
});

function expectUniform(counts: Float64Array, label: string): void {
  const statistic = uniformChiSquare(counts);
  const critical = chiSquareCritical(ALPHA, counts.length - 1);
  expect(statistic, `${label}: χ² = ${statistic} with ${counts.length - 1} df, critical ${critical} at α = ${ALPHA}`).toBeLessThan(
    critical,
  );
}

describe('StreamDice is uniform (χ² goodness of fit, 600 000 rolls, α = 1e-6)', () => {
  it('d6', () => {
    const dice = streamDice(SEED);
    const counts = new Float64Array(6);
    for (let i = 0; i < ROLLS; i++) {
      const face = dice.d6();
      counts[face - 1] = (counts[face - 1] as number) + 1;
    }
    expectUniform(counts, 'd6');
  });

  it('d10', () => {
    const dice = streamDice(SEED, 1);
    const counts = new Float64Array(10);
    for (let i = 0; i < ROLLS; i++) {
      const face = dice.d10();
      counts[face - 1] = (counts[face - 1] as number) + 1;
    }
    expectUniform(counts, 'd10');
  });

  for (let n = 1; n <= 6; n++) {
    it(`d6Packed(${n}): every one of the 6^${n} pools, and each die on its own`, () => {
      const dice = streamDice(SEED, 1 + n);
      const pools = new Float64Array(POW6[n] as number);
      const faces = Array.from({ length: n }, () => new Float64Array(6));
      for (let i = 0; i < ROLLS; i++) {
        const packed = dice.d6Packed(n);
        pools[packed] = (pools[packed] as number) + 1;
        for (let die = 0; die < n; die++) {
          const counts = faces[die] as Float64Array;
          const face = unpackDie(packed, die);
          counts[face - 1] = (counts[face - 1] as number) + 1;
        }
      }
      expectUniform(pools, `d6Packed(${n}) pools`);
      for (const [die, counts] of faces.entries()) expectUniform(counts, `d6Packed(${n}) die ${die}`);
    });
  }
});

describe('d10Packed and D10Tests', () => {
  for (const n of [1, 5, 9]) {
    it(`d10Packed(${n}): each die on its own is uniform (α = 1e-6)`, () => {
      const dice = streamDice(SEED, 20 + n);
      const faces = Array.from({ length: n }, () => new Float64Array(10));
      for (let i = 0; i < ROLLS / 2; i++) {
        let packed = dice.d10Packed(n);
        for (let die = 0; die < n; die++, packed = Math.floor(packed / 10)) {
          const counts = faces[die] as Float64Array;
          counts[packed % 10] = (counts[packed % 10] as number) + 1;
        }
      }
      for (const [die, counts] of faces.entries()) expectUniform(counts, `d10Packed(${n}) die ${die}`);
    });
  }

  it('count equals the faces that pass the test, one by one (1 always passes, 10 always fails), for scripted pools of 1–30 dice', () => {
    const tests = new D10Tests();
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: -3, max: 14 }),
        (faces, target) => {
          const dice = new ScriptedDice(faces);
          const expected = faces.filter((face) => face === 1 || (face !== 10 && face <= target)).length;
          expect(tests.count(dice, faces.length, target)).toBe(expected);
          expect(dice.remaining).toBe(0);
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });
});

describe('Dice.chance: chances on the 6¹² scale, drawn lazily', () => {
  it('chance(p) holds with probability p (within 4 SE over 400 000 draws) and never draws for 0 or 1', () => {
    const dice = streamDice(SEED, 40);
    for (const p of [0.3, 0.5, 0.9]) {
      let hits = 0;
      const trials = 400_000;
      for (let i = 0; i < trials; i++) if (dice.chance(p)) hits++;
      expect(Math.abs(hits / trials - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / trials));
    }
    const none = new ScriptedDice([]);
    expect(none.chance(0)).toBe(false);
    expect(none.chance(1)).toBe(true);
  });

  it('the second pool is drawn only on a tie, and settles it exactly', () => {
    // p = 0.5: the threshold is 6¹² / 2 = 23328 · 46656 + 0, so a first pool of 23328 ties it.
    const pool = (face: number) => Array.from({ length: 6 }, () => face);
    const below = new ScriptedDice(pool(1)); // first pool 0 < 23328
    expect(below.chance(0.5)).toBe(true);
    expect(below.remaining).toBe(0);
    // 23328 = 3 · 6⁵: faces (digit + 1) 1,1,1,1,1,4; the tie is decided by the second pool against 0: never below.
    const tie = new ScriptedDice([1, 1, 1, 1, 1, 4, ...pool(1)]);
    expect(tie.chance(0.5)).toBe(false);
    expect(tie.remaining).toBe(0);
  });
});

function rolls(dice: StreamDice, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(dice.d6(), dice.d10(), dice.d6Packed(1 + (i % 6)));
  return out;
}

describe('StreamDice streams', () => {
  it('are reproducible for a seed and stream', () => {
    expect(rolls(streamDice(SEED), 1000)).toEqual(rolls(streamDice(SEED), 1000));
    expect(rolls(streamDice(SEED, 3), 1000)).toEqual(rolls(streamDice(SEED, 3), 1000));
  });

  it('differ between seeds and between streams of a seed', () => {
    const reference = rolls(streamDice(SEED), 1000);
    expect(rolls(streamDice(SEED + 1), 1000)).not.toEqual(reference);
    expect(rolls(streamDice(SEED, 1), 1000)).not.toEqual(reference);
    expect(rolls(streamDice(SEED, 2), 1000)).not.toEqual(rolls(streamDice(SEED, 1), 1000));
    // Scenario seeds run over [0, 2^32): the top half must not alias the bottom half.
    expect(rolls(streamDice(2 ** 31), 1000)).not.toEqual(rolls(streamDice(0), 1000));
    expect(rolls(streamDice(2 ** 32 - 1), 1000)).not.toEqual(rolls(streamDice(2 ** 31 - 1), 1000));
  });

  it('streamGenerator(seed, k) is the seed generator jumped k times', () => {
    for (const k of [0, 1, 2, 5]) {
      const jumped = seedGenerator(SEED);
      for (let i = 0; i < k; i++) jumped.jump();
      const stream = streamGenerator(SEED, k);
      expect(stream.getState()).toEqual(jumped.getState());
      const fromStream = Array.from({ length: 100 }, () => stream.next());
      const fromJumped = Array.from({ length: 100 }, () => jumped.next());
      expect(fromStream).toEqual(fromJumped);
    }
  });
});

describe('packDice / unpackDie', () => {
  it('round-trip any faces of up to 6 dice', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 6 }), (faces) => {
        const packed = packDice(faces);
        expect(packed).toBeGreaterThanOrEqual(0);
        expect(packed).toBeLessThan(POW6[faces.length] as number);
        expect(faces.map((_, i) => unpackDie(packed, i))).toEqual(faces);
      }),
    );
  });

  it('every packed pool of 4 dice unpacks and packs back to itself', () => {
    for (let packed = 0; packed < 6 ** 4; packed++) {
      const faces = [0, 1, 2, 3].map((i) => unpackDie(packed, i));
      expect(packDice(faces)).toBe(packed);
    }
  });
});

describe('ScriptedDice', () => {
  it('returns the faces in order and counts what is left', () => {
    const dice = new ScriptedDice([3, 9, 1, 2, 6]);
    expect(dice.d6()).toBe(3);
    expect(dice.d10()).toBe(9);
    expect(dice.remaining).toBe(3);
    expect(dice.d6Packed(3)).toBe(packDice([1, 2, 6]));
    expect(dice.remaining).toBe(0);
  });

  it('throws when exhausted', () => {
    const dice = new ScriptedDice([4]);
    dice.d6();
    expect(() => dice.d6()).toThrow(/requested/);
    expect(() => new ScriptedDice([1, 2]).d6Packed(3)).toThrow(/requested/);
    expect(() => new ScriptedDice([]).d10()).toThrow(/requested/);
  });

  it('throws on a face the die does not have', () => {
    expect(() => new ScriptedDice([0]).d6()).toThrow(/not a D6 face/);
    expect(() => new ScriptedDice([7]).d6()).toThrow(/not a D6 face/);
    expect(() => new ScriptedDice([2.5]).d6()).toThrow(/not a D6 face/);
    expect(() => new ScriptedDice([11]).d10()).toThrow(/not a D10 face/);
    expect(() => new ScriptedDice([1, 7]).d6Packed(2)).toThrow(/not a D6 face/);
    expect(new ScriptedDice([10]).d10()).toBe(10);
  });
});

/** Every roll of n dice, as faces, in packed order. */
function* allRolls(n: number): Generator<number[]> {
  const faces = new Array<number>(n).fill(1);
  for (;;) {
    yield [...faces];
    let i = 0;
    while (i < n && faces[i] === 6) faces[i++] = 1;
    if (i === n) return;
    faces[i] = (faces[i] as number) + 1;
  }
}

const bruteForceScore = (faceScore: FaceScore, faces: readonly number[]) =>
  faces.reduce((sum, face) => sum + (faceScore[face - 1] as number), 0);

describe('PoolScorer', () => {
  const woundsVsDef4: FaceScore = [0, 0, 0, 1, 1, 2];
  for (const [label, faceScore] of [
    ['Wounds vs DEF 4', woundsVsDef4],
    ['Shield 5+', atLeast(5)],
    ['uneven scores', [3, 0, 1, 4, 1, 5] as FaceScore],
  ] as const) {
    it(`totals equal brute force on every roll of n = 1..7 dice (${label})`, () => {
      const scorer = new PoolScorer(faceScore);
      for (let n = 1; n <= 7; n++) {
        let mismatches = 0;
        for (const faces of allRolls(n)) {
          const dice = new ScriptedDice(faces);
          if (scorer.roll(dice, n) !== bruteForceScore(faceScore, faces) || dice.remaining !== 0) mismatches++;
        }
        expect(mismatches, `n = ${n}`).toBe(0);
      }
    });
  }

  it('totals equal brute force on random pools of up to 20 dice and random face scores', () => {
    fc.assert(
      fc.property(
        fc.tuple(...Array.from({ length: 6 }, () => fc.integer({ min: 0, max: 3 }))),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 0, maxLength: 20 }),
        (scores, faces) => {
          const faceScore = scores as unknown as FaceScore;
          const dice = new ScriptedDice(faces);
          expect(new PoolScorer(faceScore).roll(dice, faces.length)).toBe(bruteForceScore(faceScore, faces));
          expect(dice.remaining).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('atLeast(k) scores 1 on faces ≥ k', () => {
    expect(atLeast(5)).toEqual([0, 0, 0, 0, 1, 1]);
    expect(atLeast(1)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(atLeast(7)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('StreamDice draws', () => {
  it('never leave the face range', () => {
    const dice = new StreamDice(streamGenerator(SEED, 9));
    for (let i = 0; i < 10_000; i++) {
      const d6 = dice.d6();
      const d10 = dice.d10();
      const packed = dice.d6Packed(6);
      expect(d6 >= 1 && d6 <= 6 && d10 >= 1 && d10 <= 10 && packed >= 0 && packed < 46656 && Number.isInteger(packed)).toBe(true);
    }
  });
});

describe('StreamDice generator', () => {
  it('draws exactly the numbers of pure-rand xoroshiro128plus from the same state', () => {
    for (const [seed, stream] of [
      [SEED, 0],
      [0, 3],
      [2 ** 32 - 1, 1],
    ] as const) {
      const reference = streamGenerator(seed, stream);
      const dice = new StreamDice(reference.clone());
      for (let i = 0; i < 100_000; i++) {
        const expected = reference.next();
        const actual = dice.next();
        if (actual !== expected) expect({ i, actual }).toEqual({ i, actual: expected });
      }
    }
  });
});

describe('seedGenerator', () => {
  it('gives every seed a well-mixed start: the first d6 over 60 000 consecutive seeds is uniform (α = 1e-6)', () => {
    // Unmixed, pure-rand's xoroshiro128plus(seed) opens nearly every seed with a 6.
    const counts = new Float64Array(6);
    for (let seed = 0; seed < 60_000; seed++) {
      const face = streamDice(seed).d6();
      counts[face - 1] = (counts[face - 1] as number) + 1;
    }
    expectUniform(counts, 'first d6 by seed');
  });

  it('is pure-rand xoroshiro128plus from a hashed state', () => {
    const generator = seedGenerator(SEED);
    const copy = xoroshiro128plusFromState(generator.getState());
    expect(Array.from({ length: 50 }, () => generator.next())).toEqual(Array.from({ length: 50 }, () => copy.next()));
  });
});
