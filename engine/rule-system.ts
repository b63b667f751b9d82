import type { z } from 'zod';
import type { DrawMethod, Kernel } from './kernel.js';
import type { ScenarioBase } from './scenario-base.js';
import type { ValidationIssue } from './validation.js';

/**
 * What a rule system is to the rest of crucible: one descriptor, exported by its folder's index.ts
 * (or by a user's plugin module) and reached only through the list in engine/registry.ts (plugins
 * join when a scenario names them). sim/, analysis/, cli/ and reports/ know a rule system by this
 * interface alone, so the four built-ins use exactly the API a plugin uses. The engine stays pure:
 * every file a rule system reads comes through the `DataFiles` it is handed.
 *
 * The trial loop is the rule system's own (`Kernel.trial`, engine/kernel.ts); exact enumeration,
 * workers, checkpoints, statistics and reports work for any kernel keeping that contract.
 */

/** A problem with a user's input: `<file>: <path>: <message>` (the path as `sides[0].units[1]`). */
export interface Problem {
  readonly file: string;
  readonly path: string;
  readonly message: string;
}

/** The fields every scenario has, whatever its rule system (each schema adds its own): scenario-base.ts defines them. */
export type { ScenarioBase } from './scenario-base.js';

/** A file read and parsed, or what stopped it (syntax errors with line and column). */
export type ParsedFile = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly problems: readonly Problem[] };

/** The I/O a rule system's loader is given (sim/ provides it over the file system). */
export interface DataFiles {
  /** Read a YAML or JSON file (by extension) into plain data. */
  read(file: string): Promise<ParsedFile>;
  /** Read a file and check it against `schema`: its value, or every problem found, field by field. */
  readChecked<Schema extends z.ZodType>(file: string, schema: Schema): Promise<{ value?: z.output<Schema>; problems: Problem[] }>;
  /** Check data already read (e.g. a unit defined inline in a scenario) against `schema`. */
  check<Schema extends z.ZodType>(
    file: string,
    schema: Schema,
    data: unknown,
    at?: readonly (string | number)[],
  ): { value?: z.output<Schema>; problems: Problem[] };
  /** Whether anything (a file, a folder) is at `file`. */
  exists(file: string): Promise<boolean>;
  /** The names in `directory`, sorted; undefined when it cannot be read. */
  list(directory: string): Promise<readonly string[] | undefined>;
  /** `reference` as written in `fromFile`: relative to that file's folder unless absolute. */
  resolve(fromFile: string, reference: string): string;
  /**
   * `reference` as a bundled scenario of the built-in `ruleSystem` reads it, from
   * data/<ruleSystem>/scenarios/: where crucible's own copy of that data is (engine/data-location.ts).
   */
  bundled(ruleSystem: string, reference: string): string;
  /** Path parts joined with the platform's separator. */
  join(...parts: readonly string[]): string;
  /** `['sides', 0, 'unit']` → `sides[0].unit` (the form every problem's path takes). */
  formatPath(path: readonly PropertyKey[]): string;
}

/** What a loader found: the data the kernel needs (plain JSON: it is sent to worker threads and hashed), or why not. */
export interface LoadResult<Refs> {
  readonly refs?: Refs;
  /** Every file read (the scenario's first), for provenance. */
  readonly inputs: readonly string[];
  readonly problems: readonly Problem[];
  /** The data fields read from crucible's bundled data because their default led nowhere (engine/data-location.ts), for provenance. */
  readonly bundled?: readonly BundledData[];
}

/** A scenario's data field (`armies`) left at its default and read from crucible's bundled data instead: the field, and the path read. */
export interface BundledData {
  readonly field: string;
  readonly path: string;
}

/**
 * One format of a rule system's data files, as `crucible validate` tells it apart from a scenario
 * and checks it: by its file name (`names`, e.g. units.yaml), or by its content (`schema`: a file
 * without `ruleset:` holding every field the schema requires at its top, and more of its fields than
 * another format's, is one).
 */
export interface DataFileFormat {
  /** What it is called, after the rule system's id: "units file" reads "heroic units file" (default "data file"). */
  readonly kind?: string;
  /** The names of its files (matched against the file name alone). */
  readonly names?: RegExp;
  /** Its top-level fields, which recognise a file whatever its name. */
  readonly schema?: z.ZodObject;
  /** Every problem of the file, read and checked on its own. */
  check(file: string, files: DataFiles): Promise<readonly Problem[]>;
}

/** A data file's check that is its schema alone (the loaders check no more of it on its own). */
export const schemaCheck =
  (schema: z.ZodType): DataFileFormat['check'] =>
  async (file, files) =>
    (await files.readChecked(file, schema)).problems;

/** A schema written as a JSON Schema file for editors by `crucible schema`. */
export interface SchemaFile {
  /** e.g. `heroic-units.schema.json` */
  readonly name: string;
  readonly title: string;
  readonly schema: z.ZodType;
}

/** The module `kernelModule` names exports this: it should not load zod (a worker thread imports only it). */
export interface KernelModule<Scenario = never, Refs = never, Event = unknown> {
  compile(scenario: Scenario, refs: Refs, method: DrawMethod): Kernel<Event>;
}

export interface RuleSystem<Scenario extends ScenarioBase = ScenarioBase, Refs = unknown, Event = unknown> {
  /** The `ruleset:` a scenario names it by (a plugin: an id no built-in has). */
  readonly id: string;
  /** Its engine version: recorded in every result and checkpoint (its kernels report the same). */
  readonly version: string;
  /** One line for people: the rules it plays. */
  readonly title: string;
  /** The scenario format: a strict object of scenario-base.ts's fields (`ruleset: z.literal(id)`, name, description, seed, trials) and its own. */
  readonly scenarioSchema: z.ZodObject;
  /**
   * The rule text's constants (the scenario's `rules:` block), each defaulting to the printed value;
   * results record the ones a scenario changes.
   */
  readonly rulesSchema?: z.ZodObject;
  /** Its data files' formats (units, armies…), written out by `crucible schema`. */
  readonly dataSchemas?: readonly SchemaFile[];
  /** Older forms of the scenario format rewritten to the current one, before it is checked. */
  upgrade?(data: unknown): unknown;
  /**
   * The data files its scenarios read (heroic's units.yaml, Warmaster's army files…), which
   * `crucible validate` checks on their own: one format, or several.
   */
  readonly dataFile?: DataFileFormat | readonly DataFileFormat[];
  /** Read what a valid-shaped scenario refers to (units, army lists) and check it all. */
  load(scenario: Scenario, file: string, files: DataFiles): Promise<LoadResult<Refs>>;
  /**
   * The loader's checks on what a scenario refers to, for refs its loader did not produce (a queue
   * worker's stored spec, which anyone who can write to Redis could have written): each one's
   * format and the bounds a run keeps (dice per action, groups per side). Empty when they hold.
   * Without it, a worker checks the scenario against its schema only.
   */
  checkRefs?(scenario: Scenario, refs: unknown): readonly ValidationIssue[];
  /**
   * URL of the module exporting `compile` (a KernelModule): `import.meta.resolve('./kernel-module.js')`
   * (a .js specifier: tsx finds the .ts beside it, and compiled output the .js). Node imports it; the
   * workbench finds a built-in's by its `id` instead (web/platform/browser-platform.ts).
   */
  readonly kernelModule: string;
  /** A traced trial's events as lines of text (kernels with `setTrace`). */
  formatTrace?(events: readonly Event[]): string[];
  /** The scenario's mode, where the rule system has several (heroic attack/engagement…). */
  mode?(scenario: Scenario): string | undefined;
  /** The names of the two sides a `winner` metric tells apart; undefined: the scenario has no sides to win. */
  sides?(scenario: Scenario): readonly [string, string] | undefined;
  /**
   * What a loaded scenario's reference fields may name from its data files (units by id, armies,
   * factions), for the workbench's pickers: read through the same `files` its loader used.
   */
  choices?(scenario: Scenario, file: string, files: DataFiles): Promise<FieldChoices>;
}

/** A value a scenario field may take, offered by the workbench's pickers: as the scenario writes it, and in words. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** Choices by field pattern: array indices written `[]`, as `sides[].groups[].unit`. */
export type FieldChoices = Readonly<Record<string, readonly Choice[]>>;

/** Identity, for type inference: `export default defineRuleSystem({ … })` checks the descriptor against its own types. */
export function defineRuleSystem<Scenario extends ScenarioBase, Refs, Event>(
  system: RuleSystem<Scenario, Refs, Event>,
): RuleSystem<Scenario, Refs, Event> {
  return system;
}
