import type { Choice, DataFiles, FieldChoices } from '../rule-system.js';
import { castablePowers, dataFolder, readFaction, scenarioProfiles } from './load.js';
import type { PowerProfile, UnitProfile } from './profile.js';
import { type Scenario, scenarioUnitSchema } from './schema.js';
import { indexFileSchema } from './units.js';
import { compareChoiceText } from '../choice-order.js';

/**
 * What a Battle Forge scenario's reference fields may name, for the workbench's pickers (its plans,
 * covers and reactions are enumerations the schema already lists):
 * - a unit's `unit`: `<faction>/<unit id>` of every faction in the scenario's data folder (and
 *   entries its `units:` block adds), those with a model that has characteristics (validate.ts
 *   refuses a unit that could neither take a hit nor fight) and a reference the scenario format can write;
 * - a unit's `powers`: the powers the engine can cast (hits or Shock) that the scenario's casters may
 *   all use — the powers are their factions' (the index's and the faction's own), so a power is
 *   offered when every faction with a unit that knows powers (or, when none does, with a unit that
 *   has the power rule) can cast it, and its id is one the scenario format can write.
 * Read through the loader's own helpers.
 */

/** Whether the scenario format can write a value (the data has ids with capitals, e.g. `beastmen_horde/Chimera`). */
const writable = {
  unit: (reference: string): boolean => scenarioUnitSchema.shape.unit.safeParse(reference).success,
  power: (id: string): boolean => scenarioUnitSchema.shape.powers.safeParse([id]).success,
};

interface Sortable extends Choice {
  readonly keys: readonly string[];
}

const byKeys = (a: Sortable, b: Sortable): number => {
  for (let k = 0; k < Math.max(a.keys.length, b.keys.length); k++) {
    const order = compareChoiceText(a.keys[k] ?? '', b.keys[k] ?? '');
    if (order !== 0) return order;
  }
  return compareChoiceText(a.value, b.value);
};

const plain = (choices: readonly Sortable[]): Choice[] => [...choices].sort(byKeys).map(({ value, label }): Choice => ({ value, label }));

/** A unit that could take a hit or fight with some count of its models (validate.ts: "no model with characteristics"). */
const canField = (profile: UnitProfile): boolean => profile.models.some((model) => model.hasCharacteristics);

/** "Fireball — cast 7, 3 hits AP 1, 12″" or "Fright — cast 6, 1 Shock, 12″". */
function powerLabel(power: PowerProfile): string {
  const effect = power.hits > 0 ? `${power.hits} hit${power.hits === 1 ? '' : 's'} AP ${power.ap}` : `${power.shock} Shock`;
  return `${power.name} — cast ${power.cast}, ${effect}, ${power.range}″`;
}

/** Units of every faction, and the powers the scenario's casters can cast; empty when the data cannot be read. */
export async function battleforgeChoices(scenario: Scenario, file: string, files: DataFiles): Promise<FieldChoices> {
  const folder = await dataFolder(scenario, file, files);
  if ('problem' in folder) return {};
  const { indexFile, factionsDirectory, factionIds } = folder;
  const { value: index } = await files.readChecked(indexFile, indexFileSchema);
  if (index === undefined) return {};
  const categories = new Map(index.categories.map((category) => [category.id, category.name]));

  const factionNames = new Map<string, string>();
  const unitCategories = new Map<string, string>();
  const profiles = new Map<string, UnitProfile>();
  const castable = new Map<string, Map<string, PowerProfile>>();
  for (const faction of factionIds) {
    const read = await readFaction(files, factionsDirectory, faction, index);
    if (read.value === undefined) continue;
    factionNames.set(faction, read.value.name);
    for (const unit of read.value.units) unitCategories.set(`${faction}/${unit.id}`, categories.get(unit.category) ?? unit.category);
    for (const [key, profile] of read.profiles) profiles.set(key, profile);
    castable.set(faction, new Map([...castablePowers(read.powers)].map(([key, power]) => [key.slice(faction.length + 1), power])));
  }
  // A `units:` change that does not check out leaves its unit as the faction file has it (the loader reports it).
  const { entries } = scenarioProfiles(profiles, scenario, file, files);
  const factionOf = (reference: string): string => reference.split('/')[0] ?? '';

  const units: Sortable[] = [];
  for (const [reference, profile] of entries) {
    const factionName = factionNames.get(factionOf(reference));
    // A reference the scenario format cannot write (the data has an id with capitals) is not offered.
    if (factionName === undefined || !canField(profile) || !writable.unit(reference)) continue;
    const category = unitCategories.get(reference);
    units.push({
      value: reference,
      label: `${factionName} — ${profile.name} (${category ?? 'this scenario'})`,
      keys: [factionName, profile.name],
    });
  }

  const fielded = scenario.sides.flatMap((side) => side.units);
  const knowing = fielded.filter((unit) => unit.powers.length > 0);
  const casters = knowing.length > 0 ? knowing : fielded.filter((unit) => (entries.get(unit.unit)?.powerSlots ?? 0) > 0);
  const casterFactions = [...new Set(casters.map((unit) => factionOf(unit.unit)))];
  const powerTables = casterFactions.map((faction) => castable.get(faction) ?? new Map<string, PowerProfile>());
  const [first, ...others] = powerTables;
  const powers: Sortable[] = [...(first ?? [])]
    .filter(([id]) => writable.power(id) && others.every((table) => table.has(id)))
    .map(([id, power]): Sortable => ({ value: id, label: powerLabel(power), keys: [power.name] }));

  return {
    ...(units.length === 0 ? {} : { 'sides[].units[].unit': plain(units) }),
    ...(powers.length === 0 ? {} : { 'sides[].units[].powers[]': plain(powers) }),
  };
}
