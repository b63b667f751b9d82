import { z } from 'zod';
import { type DataLocation, locateData } from '../data-location.js';
import { parsedRefs } from '../refs-check.js';
import type { DataFiles, LoadResult, Problem } from '../rule-system.js';
import type { ValidationIssue } from '../validation.js';
import { type Army, armiesFileSchema, armySchema, type Scenario, scenarioSchema } from './schema.js';
import { validateEpic } from './validate.js';

/** The armies an Epic scenario's players use, by id (plain JSON: sent to workers). */
export interface EpicRefs {
  readonly armies: Readonly<Record<string, Army>>;
}

/**
 * The armies file, checked against its format. A missing file is the scenario's problem (its
 * `armies` points nowhere), so it is named at the scenario file's `armies` field.
 */
export async function readArmies(
  files: DataFiles,
  armiesFile: string,
  scenarioFile: string,
): Promise<{ armies?: Army[]; problems: Problem[] }> {
  const parsed = await files.read(armiesFile);
  if (!parsed.ok) {
    const [first] = parsed.problems;
    if (first?.message === 'file not found')
      return { problems: [{ file: scenarioFile, path: 'armies', message: `armies file not found: ${armiesFile}` }] };
    return { problems: [...parsed.problems] };
  }
  const { value, problems } = files.check(armiesFile, armiesFileSchema, parsed.data);
  return value === undefined ? { problems } : { armies: value.armies, problems: [] };
}

const DEFAULT_ARMIES = scenarioSchema.shape.armies.parse(undefined);

/** The scenario's armies file (`armies`, or the bundled one: engine/data-location.ts). */
export function armiesFileOf(scenario: Scenario, file: string, files: DataFiles): Promise<DataLocation> {
  return locateData(
    files,
    file,
    'epic',
    { name: 'armies', value: scenario.armies, defaultValue: DEFAULT_ARMIES, what: 'armies file' },
    (path) => files.exists(path),
  );
}

/** Loading an Epic rally scenario: the armies file it names, then the checks of validate.ts. */
export async function loadEpic(scenario: Scenario, file: string, files: DataFiles): Promise<LoadResult<EpicRefs>> {
  const location = await armiesFileOf(scenario, file, files);
  if ('problem' in location) return { inputs: [file], problems: [location.problem] };
  const armiesFile = location.path;
  const inputs = [file, armiesFile];
  const read = await readArmies(files, armiesFile, file);
  if (read.armies === undefined) return { inputs, problems: read.problems };
  const armies = new Map(read.armies.map((army) => [army.id, army]));
  const issues = validateEpic(scenario, armies).map((issue) => ({ file, path: files.formatPath(issue.path), message: issue.message }));
  if (issues.length > 0) return { inputs, problems: issues };
  return {
    refs: { armies: Object.fromEntries(scenario.players.map((player) => [player.army, armies.get(player.army) as Army])) },
    inputs,
    problems: [],
    ...(location.bundled === undefined ? {} : { bundled: [location.bundled] }),
  };
}

const epicRefsSchema = z.strictObject({ armies: z.record(z.string(), armySchema) });

/** checkRefs (engine/rule-system.ts): each army as an armies file's is checked, then the scenario against them. */
export function checkEpicRefs(scenario: Scenario, refs: unknown): ValidationIssue[] {
  const parsed = parsedRefs(epicRefsSchema, refs);
  if ('issues' in parsed) return parsed.issues;
  return validateEpic(scenario, new Map(Object.entries(parsed.value.armies)));
}
