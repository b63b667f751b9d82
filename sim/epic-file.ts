import path from 'node:path';
import { type Army, armiesFileSchema, type Scenario, scenarioSchema } from '../engine/epic/schema.js';
import { validateEpic } from '../engine/epic/validate.js';
import { parseWith, readDataFile } from './data-file.js';
import { formatPath, InputError, type InputProblem } from './errors.js';

/** Loading an Epic rally scenario: the scenario file, then the armies file it names, then the checks of validate.ts. */
export interface LoadedEpicScenario {
  readonly ruleset: 'epic';
  readonly file: string;
  readonly inputs: readonly string[];
  readonly scenario: Scenario;
  /** The armies its players use, by id. */
  readonly armies: ReadonlyMap<string, Army>;
}

export async function loadEpicScenario(file: string, data: unknown): Promise<LoadedEpicScenario> {
  const { value: scenario, problems } = parseWith(scenarioSchema, file, data);
  if (scenario === undefined) throw new InputError(problems);
  const armiesFile = path.isAbsolute(scenario.armies) ? scenario.armies : path.join(path.dirname(file), scenario.armies);
  const parsed = await readDataFile(armiesFile);
  if (!parsed.ok) {
    const [first] = parsed.problems;
    if (first?.message === 'file not found') throw new InputError([{ file, path: 'armies', message: `armies file not found: ${armiesFile}` }]);
    throw new InputError(parsed.problems);
  }
  const { value: armiesFileContent, problems: armyProblems } = parseWith(armiesFileSchema, armiesFile, parsed.data);
  if (armiesFileContent === undefined) throw new InputError(armyProblems);
  const armies = new Map(armiesFileContent.armies.map((army) => [army.id, army]));
  const issues: InputProblem[] = validateEpic(scenario, armies).map((issue) => ({ file, path: formatPath(issue.path), message: issue.message }));
  if (issues.length > 0) throw new InputError(issues);
  const used = new Map(scenario.players.map((player) => [player.army, armies.get(player.army) as Army]));
  return { ruleset: 'epic', file, inputs: [file, armiesFile], scenario, armies: used };
}
