import {
  DICE_LIMIT_REASON,
  GROUPS_LIMIT_REASON,
  MAX_DICE_PER_ACTION,
  MAX_GROUPS_PER_SIDE,
  overLimit,
  quote,
  unknownNameHint,
  type ValidationIssue,
} from '../validation.js';
import { modelCounts } from './compile.js';
import type { PowerProfile, UnitProfile } from './profile.js';
import type { Plan, Scenario } from './schema.js';

/**
 * Checks zod cannot make alone: faction references, model names and counts, ids, plans a unit
 * can carry out, and rule knobs that must agree with each other. compileScenario assumes these hold. Paths are inside the scenario file.
 */

const RANGED_PLANS: readonly Plan[] = ['shoot-and-hold', 'focus-then-shoot', 'move-and-shoot', 'evade-and-shoot'];
const MELEE_PLANS: readonly Plan[] = ['charge-and-fight'];

/** Powers by `<faction>/<power id>`: every one the data has, and those the engine can cast. */
export interface PowerCatalogue {
  readonly known: ReadonlySet<string>;
  readonly castable: ReadonlyMap<string, PowerProfile>;
}

/** `factions`: the faction ids found; `profiles`: every unit they hold, keyed `<faction>/<unit id>`. */
export function validateBattleforge(
  scenario: Scenario,
  profiles: ReadonlyMap<string, UnitProfile>,
  factions: readonly string[],
  powers: PowerCatalogue = { known: new Set(), castable: new Map() },
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const ids = new Map<string, string>();
  const [first, second] = scenario.sides;
  if (first !== undefined && second !== undefined && first.name === second.name) {
    issues.push({
      path: ['sides', 1, 'name'],
      message: `both sides are named ${quote(first.name)}: give them different names (they label the winner)`,
    });
  }
  const { autoPassFace, autoFailFace } = scenario.rules;
  if (autoPassFace >= autoFailFace) {
    issues.push({
      path: ['rules', 'autoFailFace'],
      message: `${autoFailFace} is not above rules.autoPassFace (${autoPassFace}): a face cannot both always pass and always fail (rulings §19)`,
    });
  }
  const tooMany: ValidationIssue[] = [];
  // Checked first and alone: compile builds per-unit tables and a trial activates every unit.
  scenario.sides.forEach((side, s) => {
    if (side.units.length > MAX_GROUPS_PER_SIDE) {
      tooMany.push({
        path: ['sides', s, 'units'],
        message: overLimit(
          `the number of units of side ${quote(side.name)}`,
          side.units.length,
          MAX_GROUPS_PER_SIDE,
          'MAX_GROUPS_PER_SIDE',
          GROUPS_LIMIT_REASON,
        ),
      });
    }
  });
  if (tooMany.length > 0) return [...issues, ...tooMany];
  scenario.sides.forEach((side, s) => {
    if (side.name === 'none')
      issues.push({ path: ['sides', s, 'name'], message: '"none" is the label of "no winner": choose another side name' });
    side.units.forEach((unit, u) => {
      const path = ['sides', s, 'units', u];
      const previous = ids.get(unit.id);
      if (previous !== undefined)
        issues.push({ path: [...path, 'id'], message: `duplicate unit id ${quote(unit.id)} (already used by ${previous})` });
      else ids.set(unit.id, `sides[${s}].units[${u}]`);
      if (unit.position > scenario.distance) {
        issues.push({
          path: [...path, 'position'],
          message: `${unit.position}" in front of its line, but the sides are ${scenario.distance}" apart`,
        });
      }
      const profile = profiles.get(unit.unit);
      if (profile === undefined) {
        issues.push({ path: [...path, 'unit'], message: unknownUnit(unit.unit, profiles, factions) });
        return;
      }
      const models = unit.models;
      if (typeof models === 'number' && profile.models.length > 1) {
        issues.push({
          path: [...path, 'models'],
          message: `${profile.name} has ${profile.models.length} model types (${profile.models.map((model) => quote(model.name)).join(', ')}): give counts by name`,
        });
        return;
      }
      if (typeof models === 'object') {
        const names = profile.models.map((model) => model.name);
        for (const name of Object.keys(models)) {
          if (!names.includes(name))
            issues.push({
              path: [...path, 'models', name],
              message: `${profile.name} has no model ${quote(name)}${unknownNameHint(name, names, 'models', 'the faction file')}`,
            });
        }
      }
      const faction = unit.unit.split('/')[0] ?? '';
      if (unit.powers.length > 0 && (profile.powerSlots ?? 0) === 0) {
        issues.push({ path: [...path, 'powers'], message: `${profile.name} has no power rule: it cannot cast powers` });
      }
      unit.powers.forEach((id, p) => {
        const key = `${faction}/${id}`;
        if (!powers.known.has(key)) {
          const known = [...powers.known].filter((name) => name.startsWith(`${faction}/`)).map((name) => name.slice(faction.length + 1));
          issues.push({
            path: [...path, 'powers', p],
            message: `no power ${quote(id)} for ${faction}${unknownNameHint(id, known, 'powers', 'data/battleforge/index.yaml')}`,
          });
        } else if (!powers.castable.has(key)) {
          issues.push({
            path: [...path, 'powers', p],
            message: `power ${quote(id)} does neither damage nor Shock: the engine does not cast it (engine/battleforge/README.md)`,
          });
        }
      });
      const counts = modelCounts(models, profile);
      const fighting = profile.models.reduce((sum, model, m) => sum + (model.hasCharacteristics ? (counts[m] ?? 0) : 0), 0);
      if (fighting === 0) {
        issues.push({ path: [...path, 'models'], message: 'no model with characteristics: the unit could not take a hit or fight' });
        return;
      }
      // A weapon's dice for all models of a type are rolled as one pool (attacks.ts rollHits).
      profile.models.forEach((model, m) => {
        for (const weapon of model.weapons) {
          const dice = (counts[m] ?? 0) * weapon.attacks * weapon.copies;
          if (dice <= MAX_DICE_PER_ACTION) continue;
          const what = `the dice one attack of unit ${quote(unit.id)} rolls (${counts[m] ?? 0} × ${quote(model.name)}, ${quote(weapon.name)}: ${weapon.attacks} attacks × ${weapon.copies} copies)`;
          issues.push({
            path: [...path, 'models'],
            message: overLimit(what, dice, MAX_DICE_PER_ACTION, 'MAX_DICE_PER_ACTION', DICE_LIMIT_REASON),
          });
        }
      });
      const plan = unit.plan ?? side.plan;
      const weapons = profile.models.filter((_, m) => (counts[m] ?? 0) > 0).flatMap((model) => model.weapons);
      // Said at the plan that is wrong for the unit: its own, or the side's it follows.
      const planPath = unit.plan === undefined ? ['sides', s, 'plan'] : [...path, 'plan'];
      if (RANGED_PLANS.includes(plan) && !weapons.some((weapon) => !weapon.melee)) {
        issues.push({
          path: planPath,
          message: `plan ${quote(plan)} shoots, but ${profile.name} (unit ${quote(unit.id)}) has no ranged weapon`,
        });
      }
      if (MELEE_PLANS.includes(plan) && !weapons.some((weapon) => weapon.melee)) {
        issues.push({
          path: planPath,
          message: `plan ${quote(plan)} charges, but ${profile.name} (unit ${quote(unit.id)}) has no melee weapon`,
        });
      }
    });
  });
  return issues;
}

function unknownUnit(reference: string, profiles: ReadonlyMap<string, UnitProfile>, factions: readonly string[]): string {
  const [faction = ''] = reference.split('/');
  if (!factions.includes(faction))
    return `unknown faction ${quote(faction)}${unknownNameHint(faction, factions, 'factions', 'data/battleforge/factions')}`;
  const known = [...profiles.keys()].filter((key) => key.startsWith(`${faction}/`));
  return `no unit ${quote(reference)} in the ${faction} faction${unknownNameHint(reference, known, 'units', `data/battleforge/factions/${faction}.yaml`)}`;
}
