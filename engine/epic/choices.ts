import type { Choice, DataFiles, FieldChoices } from '../rule-system.js';
import { armiesFileOf, readArmies } from './load.js';
import type { Scenario } from './schema.js';

/**
 * What an Epic scenario's reference fields may name, for the workbench's pickers: a player's `army`
 * is an army id of the scenario's armies file (formations name no data). Read through the loader's
 * own helper.
 */

/** Made on first use: a collator costs about 7 ms of CPU to build, which a run (that offers no choices) need not pay. */
let collator: Intl.Collator | undefined;
const compareText = (a: string, b: string): number =>
  (collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true })).compare(a, b);

/** The armies of the scenario's armies file by name, "Orks (Strategy Rating 3, Initiative 3+)"; empty when it cannot be read. */
export async function epicChoices(scenario: Scenario, file: string, files: DataFiles): Promise<FieldChoices> {
  const location = await armiesFileOf(scenario, file, files);
  if ('problem' in location) return {};
  const { armies } = await readArmies(files, location.path, file);
  if (armies === undefined) return {};
  const choices = [...armies]
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.id, b.id))
    .map(
      (army): Choice => ({
        value: army.id,
        label: `${army.name} (Strategy Rating ${army.strategyRating}, Initiative ${army.initiative}+)`,
      }),
    );
  return choices.length === 0 ? {} : { 'players[].army': choices };
}
