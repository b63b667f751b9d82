import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { type CellLevel, type CellRequest, type CellSource, type CellValue, exactHalf, flipped } from '../../analysis/count-cells.js';
import { seedGenerator } from '../../engine/dice/index.js';

/**
 * Measured games with a known truth, for testing prices of units bought by count without an
 * engine: `truth(s, u, a, v, b)` is unit u's true expected score at a models against unit v at b in
 * situation s (it must satisfy truth(u, a, v, b) = 1 − truth(v, b, u, a)), and each measurement is
 * that plus the noise of `trials` games — normal with the binomial variance p(1 − p)/n, which at
 * these n is the binomial to well within the checks' tolerance. The noise of a cell depends only on
 * the seed, the units' types, the counts and the level: entries of one type are identical copies,
 * measured identically, as a roster's runs of the same unit are.
 */
export interface SyntheticGame {
  /** Each entry's type (copies share one). */
  readonly types: readonly string[];
  /** Situations' shares (default one situation). */
  readonly shares?: readonly number[];
  readonly truth: (situation: number, u: number, a: number, v: number, b: number) => number;
  readonly trials: Readonly<Record<CellLevel, number>>;
  readonly seed: number;
}

/** A 32-bit hash of a text (FNV-1a), to seed each cell's own noise. */
function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
  return value | 0;
}

export class SyntheticCells implements CellSource {
  readonly entries: number;
  readonly situations: number;
  private readonly stored = new Map<string, CellValue>();
  private readonly half: CellValue;
  measured = 0;

  constructor(private readonly game: SyntheticGame) {
    this.entries = game.types.length;
    this.situations = game.shares?.length ?? 1;
    this.half = exactHalf(this.situations);
  }

  private measureOne(u: number, a: number, v: number, b: number, level: CellLevel, key: string): CellValue {
    const { types, trials, truth } = this.game;
    const shares = this.game.shares ?? [1];
    const n = trials[level];
    const random = seedGenerator(hash(`${this.game.seed}|${types[u]}|${a}|${types[v]}|${b}|${level}`));
    const normal = () => Math.sqrt(-2 * Math.log(1 - uniformFloat64(random))) * Math.cos(2 * Math.PI * uniformFloat64(random));
    const bySituation = shares.map((_, s) => {
      const p = truth(s, u, a, v, b);
      const score = Math.min(1, Math.max(0, p + Math.sqrt((p * (1 - p)) / n) * normal()));
      return { score, variance: Math.max(score * (1 - score), 1 / n) / n };
    });
    const score = bySituation.reduce((sum, entry, s) => sum + (shares[s] as number) * entry.score, 0);
    const variance = bySituation.reduce((sum, entry, s) => sum + (shares[s] as number) ** 2 * entry.variance, 0);
    this.measured += 1;
    return { score, variance, bySituation, trials: n * shares.length, level, key, sign: 1 };
  }

  /** Cells are games between types at counts: stored once, the side first by type then count. */
  private first(u: number, a: number, v: number, b: number): boolean {
    const [left, right] = [this.game.types[u] as string, this.game.types[v] as string];
    return left < right || (left === right && a < b);
  }

  private key(u: number, a: number, v: number, b: number): string {
    return `${this.game.types[u]}|${a}|${this.game.types[v]}|${b}`;
  }

  async measure(requests: readonly CellRequest[], level: CellLevel): Promise<void> {
    for (const request of requests) {
      const { u, a, v, b } = this.first(request.u, request.a, request.v, request.b)
        ? request
        : { u: request.v, a: request.b, v: request.u, b: request.a };
      if (this.game.types[u] === this.game.types[v] && a === b) continue;
      const key = this.key(u, a, v, b);
      const known = this.stored.get(key);
      if (known !== undefined && (known.level === 'fine' || level === 'coarse')) continue;
      this.stored.set(key, this.measureOne(u, a, v, b, level, key));
    }
  }

  cell(u: number, a: number, v: number, b: number): CellValue | undefined {
    if (this.game.types[u] === this.game.types[v] && a === b) return this.half;
    if (!this.first(u, a, v, b)) {
      const stored = this.stored.get(this.key(v, b, u, a));
      return stored === undefined ? undefined : flipped(stored);
    }
    return this.stored.get(this.key(u, a, v, b));
  }
}
