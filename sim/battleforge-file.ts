import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ModelProfile, PowerProfile, UnitProfile, WeaponProfile } from '../engine/battleforge/profile.js';
import { type Scenario, scenarioSchema } from '../engine/battleforge/schema.js';
import { type CombatModel, combatModels, type FactionFile, factionFileSchema, type IndexFile, indexFileSchema, weaponTable } from '../engine/battleforge/units.js';
import { saveBonuses } from '../engine/battleforge/save-rules.js';
import { validateBattleforge } from '../engine/battleforge/validate.js';
import { parseWith, readDataFile } from './data-file.js';
import { formatPath, InputError, type InputProblem } from './errors.js';

/**
 * Loading a Battle Forge scenario: the scenario file, the data's index.yaml and the faction files
 * its units name (`<faction>/<unit>` → `<data>/factions/<faction>.yaml`), each checked against its
 * format; then the units' combat profiles and the scenario's references (validate.ts).
 */
export interface LoadedBattleforgeScenario {
  readonly ruleset: 'battleforge';
  readonly file: string;
  /** The scenario file, the index and the faction files it uses. */
  readonly inputs: readonly string[];
  readonly scenario: Scenario;
  /** The combat profiles of the units the scenario names, keyed `<faction>/<unit id>`. */
  readonly profiles: ReadonlyMap<string, UnitProfile>;
  /** The powers its units know, keyed `<faction>/<power id>`. */
  readonly powers: ReadonlyMap<string, PowerProfile>;
}

/** A power the engine casts: one whose effect the converter read as hits or Shock; undefined otherwise. */
function powerProfile(power: IndexFile['powers'][number]): PowerProfile | undefined {
  if (power.attack !== undefined) return { name: power.name, cast: power.charge, range: power.attack.range, hits: power.attack.hits, ap: power.attack.ap, shock: 0 };
  if (power.shock !== undefined && power.range !== undefined) return { name: power.name, cast: power.charge, range: power.range, hits: 0, ap: 0, shock: power.shock };
  return undefined;
}

/**
 * A weapon as the engine uses it: for each way of attacking (melee, ranged) the first profile of
 * that kind, since a weapon's profiles are alternatives (a thrown and a held javelin).
 */
function weaponProfiles(model: CombatModel): WeaponProfile[] {
  const seen = new Set<string>();
  const weapons: WeaponProfile[] = [];
  for (const weapon of model.weapons) {
    const key = `${weapon.id}:${weapon.melee ? 'melee' : 'ranged'}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const long = weapon.long ?? weapon.short ?? 0;
    weapons.push({ name: weapon.profile === null ? weapon.name : `${weapon.name} (${weapon.profile})`, attacks: weapon.attacks, copies: weapon.count, ap: weapon.ap, melee: weapon.melee, short: weapon.short ?? long, long });
  }
  return weapons;
}

/** A faction unit's combat profile: each model type at its minimum count (at least one model in the unit). */
export function unitProfile(faction: string, unit: FactionFile['units'][number], weapons: ReturnType<typeof weaponTable>): UnitProfile {
  const models = combatModels(unit, weapons);
  const anyMinimum = models.some((model) => model.min > 0);
  const profiles = models.map((model, m): ModelProfile => {
    // Armour and shields: the model's and unit's rules and its weapons' (a Shield is a weapon with the `shield` rule).
    const bonus = saveBonuses([...model.rules, ...model.weapons.flatMap((weapon) => weapon.rules)].map((rule) => rule.id));
    return {
    name: model.name,
    count: anyMinimum ? model.min : m === 0 ? 1 : 0,
    hasCharacteristics: model.canBeAssignedHits,
    movement: model.stats.movement ?? 0,
    accuracy: model.stats.accuracy ?? 0,
    strength: model.stats.strength ?? 0,
    save: (model.stats.save ?? 0) + bonus.shooting,
    meleeSave: (model.stats.save ?? 0) + bonus.melee,
    initiative: model.stats.initiative ?? 0,
    courage: model.stats.courage ?? 0,
    wounds: model.wounds,
    weapons: weaponProfiles(model),
    };
  });
  const slots = Math.max(0, ...models.flatMap((model) => model.rules.filter((rule) => rule.id === 'power' && typeof rule.x === 'number').map((rule) => Number(rule.x))));
  return { reference: `${faction}/${unit.id}`, name: unit.name, models: profiles, powerSlots: slots };
}

export async function loadBattleforgeScenario(file: string, data: unknown): Promise<LoadedBattleforgeScenario> {
  const { value: scenario, problems } = parseWith(scenarioSchema, file, data);
  if (scenario === undefined) throw new InputError(problems);
  const directory = path.isAbsolute(scenario.data) ? scenario.data : path.join(path.dirname(file), scenario.data);
  const indexFile = path.join(directory, 'index.yaml');
  let factionIds: string[];
  try {
    factionIds = (await readdir(path.join(directory, 'factions'))).filter((name) => name.endsWith('.yaml')).map((name) => name.slice(0, -'.yaml'.length)).sort();
  } catch {
    throw new InputError([{ file, path: 'data', message: `Battle Forge data not found: ${path.join(directory, 'factions')} cannot be read` }]);
  }
  const index = await readChecked(indexFile, indexFileSchema, problems);
  if (index === undefined || problems.length > 0) throw new InputError(problems);

  const wanted = [...new Set(scenario.sides.flatMap((side) => side.units.map((unit) => unit.unit.split('/')[0] ?? '')))].filter((id) => factionIds.includes(id)).sort();
  const profiles = new Map<string, UnitProfile>();
  const powers = new Map<string, IndexFile['powers'][number]>();
  const inputs = [file, indexFile];
  for (const faction of wanted) {
    const factionFile = path.join(directory, 'factions', `${faction}.yaml`);
    inputs.push(factionFile);
    const parsed = await readChecked(factionFile, factionFileSchema, problems);
    if (parsed === undefined) continue;
    const weapons = weaponTable(index, parsed);
    for (const unit of parsed.units) profiles.set(`${faction}/${unit.id}`, unitProfile(faction, unit, weapons));
    for (const power of [...index.powers, ...parsed.powers]) powers.set(`${faction}/${power.id}`, power);
  }
  if (problems.length > 0) throw new InputError(problems);
  const castable = new Map<string, PowerProfile>();
  for (const [key, power] of powers) {
    const profile = powerProfile(power);
    if (profile !== undefined) castable.set(key, profile);
  }
  const issues: InputProblem[] = validateBattleforge(scenario, profiles, factionIds, { known: new Set(powers.keys()), castable }).map((issue) => ({ file, path: formatPath(issue.path), message: issue.message }));
  if (issues.length > 0) throw new InputError(issues);
  const used = new Map(scenario.sides.flatMap((side) => side.units.map((unit) => [unit.unit, profiles.get(unit.unit) as UnitProfile] as const)));
  const usedPowers = new Map(scenario.sides.flatMap((side) => side.units.flatMap((unit) => unit.powers.map((id) => `${unit.unit.split('/')[0] ?? ''}/${id}`))).map((key) => [key, castable.get(key) as PowerProfile] as const));
  return { ruleset: 'battleforge', file, inputs, scenario, profiles: used, powers: usedPowers };
}

async function readChecked<Schema extends typeof factionFileSchema | typeof indexFileSchema>(
  file: string,
  schema: Schema,
  problems: InputProblem[],
): Promise<ReturnType<Schema['parse']> | undefined> {
  const parsed = await readDataFile(file);
  if (!parsed.ok) {
    problems.push(...parsed.problems);
    return undefined;
  }
  const { value, problems: found } = parseWith(schema, file, parsed.data);
  problems.push(...found);
  return value as ReturnType<Schema['parse']> | undefined;
}
