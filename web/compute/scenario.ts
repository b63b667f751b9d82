import type { FieldChoices } from '../../engine/rule-system.js';
import { fileSystemData } from '../../input/data-file.js';
import { formatProblem, InputError, type Problem } from '../../input/errors.js';
import { type LoadedScenario, loadScenarioFile, readScenarioData } from '../../input/scenario-file.js';
import { writeText } from '../platform/volume.js';

/**
 * A scenario as the designer has it: its text written to the workbench's volume at its path, then
 * read and checked by the CLI's own loader (input/scenario-file.ts), so a problem reads exactly as
 * `crucible run` would print it: `<file>: <field>: <message>`.
 */

export type Checked =
  | { readonly ok: true; readonly loaded: LoadedScenario; readonly variants: readonly string[] }
  | { readonly ok: false; readonly problems: readonly Problem[] };

export async function checkScenario(file: string, text: string): Promise<Checked> {
  writeText(file, text);
  try {
    const loaded = await loadScenarioFile(file);
    const { variants } = await readScenarioData(file);
    return { ok: true, loaded, variants: variants.map((variant) => variant.name) };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, problems: error.problems };
    throw error;
  }
}

/** What the scenario's reference fields may name (units, armies…), from its rule system; none where it offers none. */
export async function choicesOf(loaded: LoadedScenario): Promise<FieldChoices> {
  return (await loaded.system.choices?.(loaded.scenario, loaded.file, fileSystemData)) ?? {};
}

/** A problem as the CLI prints it. */
export const problemText = formatProblem;
