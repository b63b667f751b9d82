import type { Choice, DataFiles, FieldChoices } from '../rule-system.js';
import { armiesFileOf, readArmies } from './load.js';
import type { Scenario } from './schema.js';
import { compareChoiceText } from '../choice-order.js';

/**
 * What an Epic scenario's reference fields may name, for the workbench's pickers: a player's `army`
 * is an army id of the scenario's armies file (formations name no data). Read through the loader's
 * own helper.
 */

/** The armies of the scenario's armies file by name, "Orks (Strategy Rating 3, Initiative 3+)"; empty when it cannot be read. */
export async function epicChoices(scenario: Scenario, file: string, files: DataFiles): Promise<FieldChoices> {
  const location = await armiesFileOf(scenario, file, files);
  if ('problem' in location) return {};
  const { armies } = await readArmies(files, location.path, file);
  if (armies === undefined) return {};
  const choices = [...armies]
    .sort((a, b) => compareChoiceText(a.name, b.name) || compareChoiceText(a.id, b.id))
    .map(
      (army): Choice => ({
        value: army.id,
        label: `${army.name} (Strategy Rating ${army.strategyRating}, Initiative ${army.initiative}+)`,
      }),
    );
  return choices.length === 0 ? {} : { 'players[].army': choices };
}
