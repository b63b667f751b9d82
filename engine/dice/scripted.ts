import { chanceFromPools } from './chance.js';
import { type Dice, POW10, POW6 } from './dice.js';
import type { OutcomeTable } from './outcome-table.js';

/**
 * A test double: returns the given faces in order, and fails loudly when a roll is unexpected. A
 * `pick` from a table takes the next entry as the outcome itself (it must be a possible one), and a
 * `chance` takes six faces (twelve on a tie) as stream dice draw it.
 */
export class ScriptedDice implements Dice {
  private next = 0;

  constructor(private readonly faces: readonly number[]) {}

  private take(sides: number): number {
    const face = this.faces[this.next];
    if (face === undefined) throw new Error(`ScriptedDice: roll ${this.next + 1} requested, only ${this.faces.length} scripted`);
    if (!Number.isInteger(face) || face < 1 || face > sides) {
      throw new Error(`ScriptedDice: roll ${this.next + 1} is ${face}, not a D${sides} face`);
    }
    this.next++;
    return face;
  }

  d6(): number {
    return this.take(6);
  }

  d10(): number {
    return this.take(10);
  }

  d6Packed(n: number): number {
    let packed = 0;
    for (let i = 0; i < n; i++) packed += (this.take(6) - 1) * (POW6[i] ?? 1);
    return packed;
  }

  d10Packed(n: number): number {
    let packed = 0;
    for (let i = 0; i < n; i++) packed += (this.take(10) - 1) * (POW10[i] ?? 1);
    return packed;
  }

  chance(probability: number): boolean {
    return chanceFromPools(this, probability);
  }

  pick(table: OutcomeTable): number {
    if (table.certain) return table.values[0] as number; // nothing to script: it can only be this
    const value = this.faces[this.next];
    if (value === undefined) throw new Error(`ScriptedDice: draw ${this.next + 1} requested, only ${this.faces.length} scripted`);
    if (!table.values.includes(value))
      throw new Error(`ScriptedDice: draw ${this.next + 1} is ${value}, not a possible outcome (${table.values.join(', ')})`);
    this.next++;
    return value;
  }

  /** How many scripted rolls are still unused (a test asserts 0 to prove every roll was consumed). */
  get remaining(): number {
    return this.faces.length - this.next;
  }
}
