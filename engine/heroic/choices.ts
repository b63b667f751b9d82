import type { Choice, DataFiles, FieldChoices } from '../rule-system.js';
import { readUnits, scenarioUnits, unitsFileOf } from './load.js';
import type { Scenario, Unit } from './schema.js';
import { compareChoiceText } from '../choice-order.js';

/**
 * What a heroic scenario's reference fields may name, for the workbench's pickers: a group's `unit`
 * is a unit id of the scenario's units file, or of a unit its `units:` block adds. Read through the
 * loader's own helpers, so the ids offered are the ones `loadHeroic` accepts.
 */

/** "Ogre — DEF 3 (S), MIGHT 4, WILL 4": the numbers that tell profiles apart in a picker. */
function unitLabel(unit: Unit, added: boolean): string {
  const stats = [
    `DEF ${unit.def}${unit.shield ? ' (S)' : ''}`,
    `MIGHT ${unit.might}${unit.regenerates ? ' (R)' : ''}`,
    `WILL ${unit.will}`,
  ];
  if (unit.heroic) stats.push('heroic');
  return `${unit.name} — ${stats.join(', ')}${added ? ' (this scenario)' : ''}`;
}

/** The units a heroic scenario may field, by name; empty when its units file cannot be read. */
export async function heroicChoices(scenario: Scenario, file: string, files: DataFiles): Promise<FieldChoices> {
  const location = await unitsFileOf(scenario, file, files);
  if ('problem' in location) return {};
  const read = await readUnits(files, location.path, file);
  if (read.units === undefined) return {};
  const inFile = new Set(read.units.map((unit) => unit.id));
  // A `units:` change that does not check out leaves its unit as the file has it (the loader reports it).
  const { units } = scenarioUnits(read.units, scenario, file, files);
  const choices = units
    .map((unit): Choice & { readonly name: string } => ({ value: unit.id, label: unitLabel(unit, !inFile.has(unit.id)), name: unit.name }))
    .sort((a, b) => compareChoiceText(a.name, b.name) || compareChoiceText(a.value, b.value))
    .map(({ value, label }): Choice => ({ value, label }));
  return choices.length === 0 ? {} : { 'sides[].groups[].unit': choices };
}
