/**
 * What the Battle Forge engine needs of a unit, whatever file it came from: each model type's
 * characteristics (the core rules' names), Wounds(x), and its weapons resolved to numbers. The
 * loader (engine/battleforge/load.ts) builds these from the faction files in data/battleforge/;
 * tests build them inline. No zod here: workers compile kernels from profiles without loading it.
 */

export interface WeaponProfile {
  readonly name: string;
  /** Attacks per copy. */
  readonly attacks: number;
  /** Copies per model: Rifle(2) attacks twice (Weapons: Name and Copies). */
  readonly copies: number;
  readonly ap: number;
  /** A melee weapon (range "Melee"): used by Fight actions only. */
  readonly melee: boolean;
  /** Ranged: the short band and the whole range in inches (long = short when the weapon has one band). */
  readonly short: number;
  readonly long: number;
}

export interface ModelProfile {
  readonly name: string;
  /** Models of this type in the unit. */
  readonly count: number;
  /** false: a model without characteristics — never assigned hits, removed with the rest of the unit. */
  readonly hasCharacteristics: boolean;
  readonly movement: number;
  readonly accuracy: number;
  readonly strength: number;
  /** Save against shooting: the characteristic plus the model's armour and shield rules. */
  readonly save: number;
  /** Save against fighting, when it differs (a buckler): default `save`. */
  readonly meleeSave?: number;
  readonly initiative: number;
  readonly courage: number;
  /** Wounds(x); 1 without the rule. */
  readonly wounds: number;
  readonly weapons: readonly WeaponProfile[];
}

export interface UnitProfile {
  /** `<faction>/<unit id>`. */
  readonly reference: string;
  readonly name: string;
  readonly models: readonly ModelProfile[];
  /** The `power` rule's x: powers it may use in a Power action, and attempts to stop enemy powers a round (Powers). 0: none. */
  readonly powerSlots?: number;
}

/** A power the engine can cast: hits with AP on an enemy within range, or Shock (e.g. Fright). */
export interface PowerProfile {
  readonly name: string;
  /** Cast value: D10 + the caster's Shock must be at or under it. */
  readonly cast: number;
  readonly range: number;
  readonly hits: number;
  readonly ap: number;
  readonly shock: number;
}
