import {
  DICE_LIMIT_REASON,
  GROUPS_LIMIT_REASON,
  MAX_DICE_PER_ACTION,
  MAX_GROUPS_PER_SIDE,
  overLimit,
  quote,
  quotedList,
  unknownNameHint,
  type ValidationIssue,
} from '../validation.js';
import { type Group, PRINTED_RULES, type Scenario, type Unit, type WeaponSet } from './schema.js';

export { closestNames, type ValidationIssue } from '../validation.js';

/**
 * Checks zod cannot make alone: cross-references between the scenario and the units file, and the
 * rules a scenario must respect before the engine may trust it (compileHeroic assumes these hold).
 * Each issue names the offending field by its path inside the file, e.g. ['sides', 0, 'groups', 1, 'unit'].
 */

/** Checks the units file on its own: ids are unique, and so are weapon set names within a unit. */
export function validateUnits(units: readonly Unit[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const firstIndexById = new Map<string, number>();
  units.forEach((unit, u) => {
    const first = firstIndexById.get(unit.id);
    if (first === undefined) firstIndexById.set(unit.id, u);
    else issues.push({ path: ['units', u, 'id'], message: `duplicate unit id ${quote(unit.id)} (already used by units[${first}])` });
    const weaponNames = new Set<string>();
    unit.weapons.forEach((weapon, w) => {
      // Groups pick a weapon set by name, so two sets with one name would be ambiguous.
      if (weaponNames.has(weapon.name)) {
        issues.push({
          path: ['units', u, 'weapons', w, 'name'],
          message: `unit ${quote(unit.id)} already has a weapon set named ${quote(weapon.name)}`,
        });
      }
      weaponNames.add(weapon.name);
      if (weapon.atk > MAX_DICE_PER_ACTION) {
        issues.push({
          path: ['units', u, 'weapons', w, 'atk'],
          message: overLimit('ATK', weapon.atk, MAX_DICE_PER_ACTION, 'MAX_DICE_PER_ACTION', DICE_LIMIT_REASON),
        });
      }
    });
  });
  return issues;
}

interface GroupRef {
  readonly side: number;
  readonly index: number;
  readonly group: Group;
}

type Path = (string | number)[];

/** Cross-reference and rule checks of a zod-parsed scenario against its (zod-parsed) units. */
export function validateHeroic(scenario: Scenario, units: readonly Unit[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const unitsById = new Map(units.map((unit) => [unit.id, unit] as const));
  const knownUnitIds = units.map((unit) => unit.id);
  const groupsById = new Map<string, GroupRef>();
  const [first, second] = scenario.sides;
  const tooMany: ValidationIssue[] = [];
  // Checked first and alone: every later check walks the groups, some in pairs.
  scenario.sides.forEach((side, s) => {
    if (side.groups.length > MAX_GROUPS_PER_SIDE) {
      const what = `the number of groups of side ${quote(side.name)}`;
      tooMany.push({
        path: ['sides', s, 'groups'],
        message: overLimit(what, side.groups.length, MAX_GROUPS_PER_SIDE, 'MAX_GROUPS_PER_SIDE', GROUPS_LIMIT_REASON),
      });
    }
  });
  if (tooMany.length > 0) return [...issues, ...tooMany];

  // Side names label the winner metric, next to "none" (the draw label).
  if (first !== undefined && second !== undefined && first.name === second.name) {
    issues.push({
      path: ['sides', 1, 'name'],
      message: `both sides are named ${quote(first.name)}: give them different names (they label the winner)`,
    });
  }
  scenario.sides.forEach((side, s) => {
    if (side.name === 'none')
      issues.push({ path: ['sides', s, 'name'], message: '"none" is reserved for "no winner": choose another side name' });
    side.groups.forEach((group, g) => {
      const existing = groupsById.get(group.id);
      if (existing === undefined) groupsById.set(group.id, { side: s, index: g, group });
      else {
        issues.push({
          path: ['sides', s, 'groups', g, 'id'],
          message: `duplicate group id ${quote(group.id)} (already used by sides[${existing.side}].groups[${existing.index}])`,
        });
      }
    });
  });

  const allGroupIds = [...groupsById.keys()];
  const groupCheck = { groupsById, allGroupIds, issues };
  scenario.sides.forEach((side, s) => {
    side.groups.forEach((group, g) => {
      const path: Path = ['sides', s, 'groups', g];
      const unit = unitsById.get(group.unit);
      if (unit === undefined) {
        issues.push({
          path: [...path, 'unit'],
          message: `unknown unit ${quote(group.unit)}${unknownNameHint(group.unit, knownUnitIds, 'units')}`,
        });
      }
      checkFormation(group, unit, scenario.rules.formationMinimum, path, issues);
      checkTargets(group, s, path, groupCheck);
      if (unit !== undefined) checkUnitDependent(group, unit, s, path, groupCheck);
    });
  });
  return issues;
}

function checkFormation(group: Group, unit: Unit | undefined, minimum: number, path: Path, issues: ValidationIssue[]): void {
  if (group.formation) {
    if (group.models < minimum) {
      // rules.formationMinimum: 3 as printed (rulings §8); the message names the knob only when changed.
      const knob = minimum === PRINTED_RULES.formationMinimum ? '' : ', rules.formationMinimum';
      issues.push({
        path: [...path, 'formation'],
        message: `a formation needs at least ${minimum} models (rulings §8${knob}); this group has ${group.models}`,
      });
    }
    if (unit?.heroic === true) {
      issues.push({
        path: [...path, 'formation'],
        message: `unit ${quote(unit.id)} is heroic: Heroes, Heroic Mounts and Heroic Beasts cannot enter Formations`,
      });
    }
    if (group.split !== undefined) {
      issues.push({
        path: [...path, 'split'],
        message: 'a formation attacks one target with all its dice pooled: it cannot split its attack (rulings §8)',
      });
    }
  } else if (group.cards !== undefined) {
    issues.push({ path: [...path, 'cards'], message: 'cards describe a combined formation: set formation: true or remove cards' });
  }
  if (group.cards !== undefined) {
    const total = group.cards.reduce((sum, models) => sum + models, 0);
    if (total !== group.models) {
      issues.push({ path: [...path, 'cards'], message: `cards add up to ${total} models but the group has models: ${group.models}` });
    }
  }
  if (group.frontRank !== undefined && group.frontRank > group.models) {
    issues.push({ path: [...path, 'frontRank'], message: `frontRank ${group.frontRank} is more than the group's ${group.models} models` });
  }
  if (group.split !== undefined && !group.formation && group.models > 1) {
    issues.push({
      path: [...path, 'split'],
      message: `a split is declared by one model; this group has ${group.models} models (make a group of 1 model per split)`,
    });
  }
}

interface GroupCheck {
  readonly groupsById: ReadonlyMap<string, GroupRef>;
  readonly allGroupIds: readonly string[];
  readonly issues: ValidationIssue[];
}

/** The group a reference names, or undefined after recording why it names none. */
function resolveGroup(name: string, path: Path, check: GroupCheck): GroupRef | undefined {
  const found = check.groupsById.get(name);
  if (found === undefined)
    check.issues.push({ path, message: `no group has id ${quote(name)}${unknownNameHint(name, check.allGroupIds, 'groups')}` });
  return found;
}

function checkTargets(group: Group, side: number, path: Path, check: GroupCheck): void {
  const requireEnemy = (name: string, at: Path, what: string): void => {
    const found = resolveGroup(name, at, check);
    if (found !== undefined && found.side === side) {
      check.issues.push({ path: at, message: `group ${quote(name)} is on this group's own side: ${what} must be an enemy group` });
    }
  };
  if (group.target !== undefined) requireEnemy(group.target, [...path, 'target'], 'a target');
  const splitTargets = new Set<string>();
  group.split?.forEach((part, i) => {
    requireEnemy(part.target, [...path, 'split', i, 'target'], 'a split target');
    if (splitTargets.has(part.target)) {
      check.issues.push({
        path: [...path, 'split', i, 'target'],
        message: `group ${quote(part.target)} appears twice in split: merge its dice`,
      });
    }
    splitTargets.add(part.target);
  });
  const areaGroups = new Set<string>();
  group.area?.forEach((part, i) => {
    const found = resolveGroup(part.group, [...path, 'area', i, 'group'], check);
    if (found !== undefined && part.models > found.group.models) {
      check.issues.push({
        path: [...path, 'area', i, 'models'],
        message: `${part.models} models of group ${quote(part.group)} in the area, but that group has only ${found.group.models}`,
      });
    }
    if (areaGroups.has(part.group)) {
      check.issues.push({
        path: [...path, 'area', i, 'group'],
        message: `group ${quote(part.group)} appears twice in area: add its models together`,
      });
    }
    areaGroups.add(part.group);
  });
}

function checkUnitDependent(group: Group, unit: Unit, side: number, path: Path, check: GroupCheck): void {
  const { issues } = check;
  let weapon: WeaponSet | undefined = unit.weapons[0];
  if (group.weapon !== undefined) {
    weapon = unit.weapons.find((candidate) => candidate.name === group.weapon);
    if (weapon === undefined) {
      issues.push({
        path: [...path, 'weapon'],
        message: `unit ${quote(unit.id)} has no weapon set ${quote(group.weapon)}; its weapon sets: ${quotedList(unit.weapons.map((w) => w.name))}`,
      });
    }
  }
  if (group.woundsTaken >= unit.might) {
    issues.push({
      path: [...path, 'woundsTaken'],
      message: `woundsTaken ${group.woundsTaken} would vanquish every model: unit ${quote(unit.id)} has MIGHT ${unit.might} (use at most ${unit.might - 1})`,
    });
  }
  if (weapon === undefined) return;
  checkPooledDice(group, weapon, path, issues);
  if (group.split !== undefined) {
    // Rulings §5: only a melee attack is split among engaged targets, declared before rolling.
    if (weapon.type !== 'melee') {
      issues.push({
        path: [...path, 'split'],
        message: `only a melee attack can be split (rulings §5); weapon ${quote(weapon.name)} is ${weapon.type}`,
      });
    }
    const dice = group.split.reduce((sum, part) => sum + part.dice, 0);
    if (dice > weapon.atk) {
      issues.push({ path: [...path, 'split'], message: `split uses ${dice} dice but weapon ${quote(weapon.name)} has ATK ${weapon.atk}` });
    }
  }
  if (group.area !== undefined) {
    if (weapon.type !== 'aoe') {
      issues.push({ path: [...path, 'area'], message: `area is only for AoE weapons; weapon ${quote(weapon.name)} is ${weapon.type}` });
    } else if (weapon.enemiesOnly) {
      group.area.forEach((part, i) => {
        if (check.groupsById.get(part.group)?.side === side) {
          issues.push({
            path: [...path, 'area', i, 'group'],
            message: `weapon ${quote(weapon.name)} is enemiesOnly: the area cannot include own-side group ${quote(part.group)}`,
          });
        }
      });
    }
  }
}

/**
 * A formation pools its figures' ATK dice into one Attack Action (rulings §8): that total is what
 * an outcome table is built for, so it is what MAX_DICE_PER_ACTION bounds. A single model, and an
 * AoE (ATK dice per model in the area), roll ATK dice: the units file's ATK is checked with the
 * units, and here again once the scenario's `units:` changes are merged.
 */
function checkPooledDice(group: Group, weapon: WeaponSet, path: Path, issues: ValidationIssue[]): void {
  const pools = group.formation && weapon.type !== 'aoe';
  const figures = !pools ? 1 : weapon.type === 'melee' && !weapon.indirect ? (group.frontRank ?? group.models) : group.models;
  const dice = weapon.atk * figures;
  if (dice <= MAX_DICE_PER_ACTION) return;
  const what = pools
    ? `group ${quote(group.id)}'s formation pools ${figures} figures × ATK ${weapon.atk} of weapon ${quote(weapon.name)}: the dice of one Attack Action`
    : `group ${quote(group.id)}'s weapon ${quote(weapon.name)} rolls ATK ${weapon.atk}: the dice of one Attack Action`;
  issues.push({
    path: [...path, pools ? 'models' : 'unit'],
    message: overLimit(what, dice, MAX_DICE_PER_ACTION, 'MAX_DICE_PER_ACTION', DICE_LIMIT_REASON),
  });
}
