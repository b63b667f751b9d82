import { chanceFromPools } from './chance.js';
import { type Dice, unpackDie } from './dice.js';
import type { OutcomeTable } from './outcome-table.js';

/**
 * Passes every roll through to the real dice and keeps the faces, unpacking packed pools with
 * `unpackDie`: the kernel draws exactly what it draws untraced, and each event takes the faces
 * drawn since the previous one. An outcome drawn whole from a table (`pick`) has no faces.
 */
export class RecordingDice implements Dice {
  private faces: number[] = [];

  constructor(private readonly inner: Dice) {}

  d6(): number {
    const face = this.inner.d6();
    this.faces.push(face);
    return face;
  }

  d10(): number {
    const face = this.inner.d10();
    this.faces.push(face);
    return face;
  }

  d10Packed(n: number): number {
    const packed = this.inner.d10Packed(n);
    for (let i = 0, rest = packed; i < n; i++, rest = Math.floor(rest / 10)) this.faces.push((rest % 10) + 1);
    return packed;
  }

  d6Packed(n: number): number {
    const packed = this.inner.d6Packed(n);
    for (let i = 0; i < n; i++) this.faces.push(unpackDie(packed, i));
    return packed;
  }

  chance(probability: number): boolean {
    return chanceFromPools(this, probability);
  }

  pick(table: OutcomeTable): number {
    return this.inner.pick(table);
  }

  /** The faces drawn since the last call. */
  take(): number[] {
    const faces = this.faces;
    this.faces = [];
    return faces;
  }
}
