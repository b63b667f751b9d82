import type { Choice, DataFiles, FieldChoices } from '../rule-system.js';
import { armiesDirectory, listArmies, readArmies, scenarioUnits } from './load.js';
import { type Scenario, unitReference } from './schema.js';
import type { WarmasterUnit } from './units.js';
import { compareChoiceText } from '../choice-order.js';

/**
 * What a Warmaster scenario's reference fields may name, for the workbench's pickers: a unit's
 * `unit` is a troop entry `<army>/<unit id>` of the scenario's armies folder that the combat engine
 * can roll (validate.ts refuses one whose Attacks or Hits are not numbers), and its `characters` are
 * character entries (characters, mounts, upgrades) of any army. Entries the scenario's `units:` block
 * adds are offered too. Read through the loader's own helpers.
 */

const SMALL_WORDS: ReadonlySet<string> = new Set(['of', 'the', 'and']);

/** "tomb-kings" → "Tomb Kings", "regiments-of-renown" → "Regiments of Renown", "monstrous-mount" → "Monstrous Mount". */
function titleCase(id: string): string {
  return id
    .split('-')
    .map((word, w) => (w > 0 && SMALL_WORDS.has(word) ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(' ');
}

/** Whether the combat engine can field a troop entry (validate.ts: Attacks and Hits must be numbers). */
const canFight = (entry: WarmasterUnit): boolean => entry.kind === 'troop' && entry.attacks !== null && entry.hits !== null;

interface Sortable extends Choice {
  readonly army: string;
  readonly name: string;
}

/** By army, then name: "Orcs — Giant (Monster)". */
function sorted(entries: readonly (readonly [string, WarmasterUnit])[], added: ReadonlySet<string>): Choice[] {
  return entries
    .map(([reference, entry]): Sortable => {
      const army = titleCase(reference.split('/')[0] ?? '');
      return {
        value: reference,
        army,
        name: entry.name,
        label: `${army} — ${entry.name} (${titleCase(entry.type)})${added.has(reference) ? ' (this scenario)' : ''}`,
      };
    })
    .sort((a, b) => compareChoiceText(a.army, b.army) || compareChoiceText(a.name, b.name) || compareChoiceText(a.value, b.value))
    .map(({ value, label }): Choice => ({ value, label }));
}

/** Troops and characters of every army in the scenario's armies folder; empty when it cannot be read. */
export async function warmasterChoices(scenario: Scenario, file: string, files: DataFiles): Promise<FieldChoices> {
  const location = await armiesDirectory(scenario, file, files);
  if ('problem' in location) return {};
  const directory = location.path;
  const armies = await listArmies(files, directory);
  if (armies === undefined) return {};
  const read = await readArmies(files, directory, armies);
  // A `units:` change that does not check out leaves its entry as the army file has it (the loader reports it).
  const { entries } = scenarioUnits(read.units, scenario, file, files);
  const added = new Set([...entries.keys()].filter((reference) => !read.units.has(reference)));
  // A new entry under an army the folder lacks is refused by validate.ts (unknown army); a reference the format cannot write is not offered.
  const known = [...entries].filter(
    ([reference]) => armies.includes(reference.split('/')[0] ?? '') && unitReference.safeParse(reference).success,
  );
  const troops = sorted(
    known.filter(([, entry]) => canFight(entry)),
    added,
  );
  const characters = sorted(
    known.filter(([, entry]) => entry.kind === 'character'),
    added,
  );
  return {
    ...(troops.length === 0 ? {} : { 'sides[].units[].unit': troops }),
    ...(characters.length === 0 ? {} : { 'sides[].units[].characters[]': characters }),
  };
}
