import path from 'pathe';
import type { DataFileFormat, Problem, RuleSystem } from '../engine/rule-system.js';
import { BUILT_IN_RULE_SYSTEMS, loadBuiltIn, loadBuiltInRuleSystems } from '../engine/registry.js';
import { fileSystemData } from './data-file.js';

/**
 * The data files a rule system's scenarios read (heroic units files, Warmaster army files, Battle
 * Forge faction and index files, Epic armies files, a plugin's own: each rule system's `dataFile`
 * formats, engine/rule-system.ts) told apart from scenarios, by name or by content, and checked on
 * their own (`crucible validate`).
 */

/** One format of one rule system. */
export interface DataFileKind {
  readonly system: RuleSystem;
  readonly format: DataFileFormat;
}

const isFormatList = (value: DataFileFormat | readonly DataFileFormat[]): value is readonly DataFileFormat[] => Array.isArray(value);

/** A rule system's data-file formats (its `dataFile`: none, one or several). */
export function formatsOf(system: RuleSystem): readonly DataFileFormat[] {
  const declared = system.dataFile;
  if (declared === undefined) return [];
  return isFormatList(declared) ? declared : [declared];
}

/** "a units file", "an army file": what a format's files are, in a sentence. */
export const kindWords = ({ format }: DataFileKind): string => withArticle(format.kind ?? 'data file');

/** "an army file", "a units file" (a unit: the sound, not the letter). */
const withArticle = (words: string): string => `${/^[aeio]/i.test(words) ? 'an' : 'a'} ${words}`;

/** "heroic units file", "warmaster army file", "homebrew data file". */
export const kindName = ({ system, format }: DataFileKind): string => `${system.id} ${format.kind ?? 'data file'}`;

/** Every format of each of `systems`. */
const kindsOf = (systems: readonly RuleSystem[]): DataFileKind[] =>
  systems.flatMap((system) => formatsOf(system).map((format) => ({ system, format })));

/** `plugins` (trusted, loaded) first, then the built-ins (all loaded: what tells a file by its content needs every format): every format of each. */
const allKinds = async (plugins: readonly RuleSystem[]): Promise<DataFileKind[]> =>
  kindsOf([...plugins, ...(await loadBuiltInRuleSystems())]);

/**
 * The formats whose files are named like `file` (units.yaml, combat-flags.yaml): of the built-ins,
 * only those whose registry entry names such files are loaded, so a scenario's name costs nothing.
 */
export async function kindsNamedLike(file: string, plugins: readonly RuleSystem[] = []): Promise<DataFileKind[]> {
  const name = path.basename(file);
  const builtIns = BUILT_IN_RULE_SYSTEMS.filter((entry) => entry.dataFileNames?.some((names) => names.test(name)) === true);
  const systems = [...plugins, ...(await Promise.all(builtIns.map(loadBuiltIn)))];
  return kindsOf(systems).filter(({ format }) => format.names?.test(name) === true);
}

/**
 * Why `file` is not a scenario, if it is named like a data file (units.yaml): "this is a units file;
 * <what the command takes>". A command that takes scenarios says so before reading the file.
 */
export async function dataFileNamed(file: string, takes: string): Promise<string | undefined> {
  const [kind] = await kindsNamedLike(file);
  return kind === undefined ? undefined : `this is ${kindWords(kind)}; ${takes}`;
}

/** Why `data` (a file without `ruleset:`) is not a scenario, if it holds a data file's fields; read through loadScenarioData. */
export async function dataFileHeld(data: unknown): Promise<string | undefined> {
  const [kind] = await kindsHolding(data);
  return kind === undefined
    ? undefined
    : `this is ${withArticle(kindName(kind))} (data scenarios read), not a scenario: crucible validate checks it on its own`;
}

/** A schema's top-level fields, and those a file must have (neither optional nor defaulted). */
function fieldsOf(format: DataFileFormat): { known: ReadonlySet<string>; required: readonly string[] } | undefined {
  const shape = format.schema?.shape;
  if (shape === undefined) return undefined;
  const known = new Set(Object.keys(shape));
  const required = [...known].filter((key) => !(shape[key]?.safeParse(undefined).success ?? true));
  return { known, required };
}

/**
 * The formats `data` (a parsed file) holds, by content: a mapping with no `ruleset` holding more of
 * a format's top-level fields than fields it does not know, and most of the fields it requires (a
 * file missing one is still that file, with a problem). Of those, the ones holding every required
 * field, then knowing the most of its fields and the fewest it does not (a Warmaster army file has
 * `army` and `units`: heroic's units files know one of the two, Warmaster's army files both). Empty:
 * not a data file (a scenario, a roster, or neither) — a scenario that forgot its `ruleset:` is no
 * units file for holding `units:`.
 */
export async function kindsHolding(data: unknown, plugins: readonly RuleSystem[] = []): Promise<DataFileKind[]> {
  if (typeof data !== 'object' || data === null || Array.isArray(data) || 'ruleset' in data) return [];
  const keys = Object.keys(data);
  const scored = (await allKinds(plugins)).flatMap((kind) => {
    const fields = fieldsOf(kind.format);
    if (fields === undefined || fields.required.length === 0) return [];
    const present = fields.required.filter((key) => keys.includes(key)).length;
    const known = keys.filter((key) => fields.known.has(key)).length;
    if (2 * present < fields.required.length || 2 * known <= keys.length) return [];
    return [{ kind, whole: present === fields.required.length, score: 2 * known - keys.length }];
  });
  const [best] = [...scored].sort((a, b) => Number(b.whole) - Number(a.whole) || b.score - a.score);
  return scored.filter(({ whole, score }) => whole === best?.whole && score === best.score).map(({ kind }) => kind);
}

/**
 * The formats `file` may be: those named like it, else those its content fits (`data`, the file as
 * parsed, when it could be). Empty: a scenario or a roster.
 */
export async function dataFileKinds(file: string, data: unknown, plugins: readonly RuleSystem[] = []): Promise<DataFileKind[]> {
  const named = await kindsNamedLike(file, plugins);
  return named.length > 0 ? named : kindsHolding(data, plugins);
}

/**
 * Check a data file on its own (`crucible validate data/heroic/units.yaml`) as each of `kinds` (what
 * `dataFileKinds` found, at least one) — a trusted plugin's as a built-in's: the kind it is, and its
 * problems. When there are several (the example plugin's units.yaml and heroic's), the file is good
 * if one of them accepts it; otherwise the problems are those of the format it is closest to (the
 * fewest problems), saying which.
 */
export async function checkDataFile(
  file: string,
  kinds: readonly [DataFileKind, ...DataFileKind[]],
): Promise<{ kind: DataFileKind; problems: readonly Problem[] }> {
  const found: { readonly kind: DataFileKind; readonly problems: readonly Problem[] }[] = [];
  for (const kind of kinds) {
    const problems = await kind.format.check(file, fileSystemData);
    if (problems.length === 0) return { kind, problems };
    found.push({ kind, problems });
  }
  const [closest] = [...found].sort((a, b) => a.problems.length - b.problems.length) as [(typeof found)[number]];
  // Problems every format finds alike (broken YAML) need no word on which one was meant.
  const alike = found.every(({ problems }) => JSON.stringify(problems) === JSON.stringify(closest.problems));
  const named = kinds.every(({ format }) => format.names?.test(path.basename(file)) === true);
  const read = alike
    ? ''
    : ` (checked as a ${kindName(closest.kind)}: the closest to it of the formats ${named ? 'named like it' : 'its fields fit'}, ${kinds.map(({ system }) => system.id).join(', ')})`;
  return { kind: closest.kind, problems: closest.problems.map((problem) => ({ ...problem, message: `${problem.message}${read}` })) };
}
