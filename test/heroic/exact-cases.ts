import type { Unit } from '../../engine/heroic/index.js';
import { type FormationOutcome, formationBroken } from './oracle.js';
import type { Distribution } from '../helpers/distribution.js';
import { type GroupInput, type ModelProfile, model, type OptionsInput, weapon } from './scenarios.js';

/** One Attack Action scenario and the exact distributions its metrics must follow (test/heroic/exact.test.ts). */
export interface ExactCase {
  readonly label: string;
  readonly units: readonly Unit[];
  readonly attackers: GroupInput[];
  readonly defenders: GroupInput[];
  readonly options?: OptionsInput;
  /** Exact distribution of each metric checked. */
  readonly expected: Readonly<Record<string, Distribution>>;
  /** Metrics whose exact distribution is a single value (every trial must give it). */
  readonly certain?: readonly string[];
}

/** A single model with `atk` ranged dice attacks a single model (group `target`). */
export function oneOnOne(
  label: string,
  attack: { atk: number; damage?: string[] },
  target: ModelProfile,
  exact: Distribution,
  options: OptionsInput = {},
): ExactCase {
  return {
    label,
    units: [
      model('shooter', { def: 4, might: 3, will: 4, weapons: [weapon('ranged', attack.atk, attack.damage)] }),
      model('target', target),
    ],
    attackers: [{ id: 'shooter', unit: 'shooter', models: 1, target: 'target' }],
    defenders: [{ id: 'target', unit: 'target', models: 1 }],
    options,
    expected: { 'target.woundsTaken': exact, 'A.woundsDealt': exact },
  };
}

export interface Volley {
  readonly figures: number;
  readonly atk: number;
  readonly damage?: string[];
}

/** A formation of archers attacks a formation (group `wall`) of `models`, each already carrying `woundsTaken`. */
export function volleyAtFormation(
  label: string,
  volley: Volley,
  target: ModelProfile,
  wall: { models: number; woundsTaken?: number },
  outcome: FormationOutcome,
  options: OptionsInput = {},
): ExactCase {
  return {
    label,
    units: [
      model('archer', { def: 3, might: 1, will: 3, weapons: [weapon('ranged', volley.atk, volley.damage)] }),
      model('soldier', target),
    ],
    attackers: [{ id: 'archers', unit: 'archer', models: volley.figures, formation: true, target: 'wall' }],
    defenders: [{ id: 'wall', unit: 'soldier', models: wall.models, formation: true, woundsTaken: wall.woundsTaken ?? 0 }],
    options,
    // A.woundsDealt, not wall.woundsTaken: the same number whether or not Wounds carried in are counted.
    expected: {
      'A.woundsDealt': outcome.wounds,
      'wall.modelsLost': outcome.modelsLost,
      'wall.formationBroken': formationBroken(outcome, wall.models),
    },
  };
}

/** A formation of archers attacks a single model (group `target`). */
export function volleyAtModel(
  label: string,
  volley: Volley,
  target: ModelProfile,
  exact: Distribution,
  options: OptionsInput = {},
): ExactCase {
  return {
    label,
    units: [
      model('archer', { def: 3, might: 1, will: 3, weapons: [weapon('ranged', volley.atk, volley.damage)] }),
      model('target', target),
    ],
    attackers: [{ id: 'archers', unit: 'archer', models: volley.figures, formation: true, target: 'target' }],
    defenders: [{ id: 'target', unit: 'target', models: 1 }],
    options,
    expected: { 'target.woundsTaken': exact },
  };
}
