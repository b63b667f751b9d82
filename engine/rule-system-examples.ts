import type { z } from 'zod';

/**
 * What a rule system's folder gives crucible's shared checks besides its descriptor: its
 * `examples.ts` exports (by default) one of these — sample scenarios for the suites every rule
 * system passes (the kernel contract, the loading fuzz, unreadable inputs, the workbench's field
 * choices: test/) and the field tables of its README (scripts/docs-tables.ts). Those find it
 * through the registry, as engine/<id>/examples.ts for each entry of engine/registry.ts, so a new
 * rule system is checked by all of them and documented with nothing added anywhere else.
 *
 * Data only (file names, field names and paths, the schemas its tables show): no test code, and
 * nothing a run imports. Scenario and data file names are relative to `folder`; a scenario named
 * here is read as this rule system's whatever its `ruleset:` says (a plugin's name its module).
 */
export interface RuleSystemExamples {
  /**
   * URL of the folder of its data files and scenarios, ending in `/`: a built-in's data/<id>/
   * (`new URL('../../data/heroic/', import.meta.url).href`), or a plugin's own folder.
   */
  readonly folder: string;
  /** Its bundled scenarios' folder: each file there is a valid scenario (npm run scenarios runs them all). */
  readonly scenarios: string;
  /** For the kernel contract (test/sim/kernel-contract.test.ts). */
  readonly contract: {
    /** A single action: few enough paths to enumerate exactly (every property of the contract). */
    readonly action: ExampleScenario;
    /** A whole engagement, too long to enumerate: every phase of a trial exercised. */
    readonly chain: ExampleScenario;
    /** Whether the kernel implements the optional `setTrace` (asserted both ways). */
    readonly traces: boolean;
  };
  /**
   * A bundled scenario and every data file it reads, in the order its loader reports them: the
   * suites that copy a scenario with its files (fuzzing, unreadable inputs) copy these.
   */
  readonly sample: { readonly scenario: string; readonly dataFiles: readonly string[] };
  /** For the loading fuzz of `sample` (test/sim/fuzz-rule-systems.test.ts). */
  readonly fuzz: {
    /** Field names of its formats, for mutations that add a key. */
    readonly keys: readonly string[];
    /** Places where a hostile number reaches a size the engine must bound (a count, a `units:` change). */
    readonly patches: readonly FieldPath[];
    /** Cases drawn (each loads, and runs if accepted): what this rule system's loading costs allow. */
    readonly cases: number;
    /** Cases the fuzzing once found to break, kept as fixed tests (other seeds do not reach them). */
    readonly regressions: readonly { readonly title: string; readonly set: readonly (readonly [FieldPath, unknown])[] }[];
  };
  /**
   * The field patterns its `choices` offers (test/web/field-choices.test.ts): `always` for every
   * bundled scenario, `maybe` when a scenario calls for them. Absent when it has no `choices`.
   */
  readonly choices?: { readonly always: readonly string[]; readonly maybe: readonly string[] };
  /** The field tables of the README.md beside examples.ts (scripts/docs-tables.ts). */
  readonly docs: {
    /** The file defining the schemas, relative to examples.ts: named in problems (a field without a description). */
    readonly source: string;
    /** How its `<list>/<unit id>` references read in a type column (e.g. `` `<army>/<unit id>` ``). */
    readonly reference?: string;
    readonly tables: readonly DocTable[];
  };
}

/** A scenario file, maybe with fields changed. */
export interface ExampleScenario {
  /** Relative to the examples' `folder`. */
  readonly file: string;
  /** Field changes, as `crucible run --set path=value` makes them (checked like the file itself). */
  readonly set?: readonly (readonly [string, unknown])[];
}

/** A place in a scenario or data file: `['sides', 0, 'units', 0, 'stands']`. */
export type FieldPath = readonly (string | number)[];

/** One README table: a schema of an object a user writes, one row per field. */
export interface DocTable {
  /** In the README's marker after the rule system's id, e.g. `group` in `heroic group`. */
  readonly key: string;
  readonly schema: z.ZodType;
  /** How a field holding one of these reads in another table's type column (default: the key)… */
  readonly noun?: string;
  /** …and a list of them (default: the noun and an s). */
  readonly plural?: string;
}

/** Identity, for type checking: `export default defineExamples({ … })`. */
export const defineExamples = (examples: RuleSystemExamples): RuleSystemExamples => examples;
