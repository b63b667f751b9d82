import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parse, stringify } from 'yaml';
import { StreamDice, streamGenerator } from '../../engine/dice/index.js';
import type { DrawMethod } from '../../engine/kernel.js';
import { InputError } from '../../input/errors.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runWithDice } from '../../sim/run.js';
import { type LoadedScenario, loadScenarioFile } from '../../input/scenario-file.js';
import { Tally } from '../../statistics/tally.js';
import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { BUILT_IN_EXAMPLES } from '../helpers/examples.js';
import { cpuMilliseconds } from '../helpers/cpu-time.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * fuzz-scenarios.test.ts for every rule system engine/registry.ts lists (issue 17): the bundled
 * scenario and data files its examples.ts names (`sample`), copied with their layout and mutated — hostile sizes, control characters,
 * prototype keys, arrays past MAX_GROUPS_PER_SIDE, dice past MAX_DICE_PER_ACTION — then loaded
 * through the generic loadScenarioFile. Either an InputError whose every line is
 * `<file>: <path>: <message>`, or a scenario whose kernel (compiled as `crucible run` does,
 * sim/kernel-spec.ts) runs 20 trials in under 2 s; never a TypeError, a hang or a polluted prototype.
 * What it found is kept as fixed cases (`fuzz.regressions`), failing until the product bounds those sizes.
 * FUZZ_SEED=<n> explores another seed (there a Battle Forge `shock` of 1e9 can hold one trial for a minute).
 */

type Json = unknown;
type Step = string | number;

/** A rule system and what its folder's examples.ts gives this fuzzing (`sample` and `fuzz`: engine/rule-system-examples.ts). */
const SYSTEMS = BUILT_IN_EXAMPLES.map((found) => ({
  ...found,
  ruleset: found.system.id,
  ...found.examples.sample,
  ...found.examples.fuzz,
}));

/** Counts past every limit and beside them, fractions, and what YAML reads as numbers but JSON cannot hold. */
const NUMBERS: Json[] = [
  -1,
  0,
  0.5,
  1,
  3,
  501,
  3333,
  3334,
  9999,
  10_000,
  10_001,
  1e6,
  1e9,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  1e308,
  -0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];
const LONG = 'x'.repeat(100_000);
/** Numbers as text, a 100k-character name, terminal escapes, bell, NUL, CR, a bidi override, a line separator, paths that are not data. */
const STRINGS: Json[] = [
  '',
  'NaN',
  'Infinity',
  '1e999',
  '0x10',
  '1_000',
  ' 3',
  LONG,
  '\u001b[2J',
  'bel\u0007',
  'nul\u0000',
  'cr\rx',
  'line\nbreak',
  'a\u202eb',
  'sep\u2028line',
  'ünïcödé',
  '__proto__',
  'constructor',
  '/dev/null',
  '..',
  '/',
];
/** Values whose own keys would reach a prototype if merged naively (JSON.parse makes them own keys). */
const STRUCTURED: Json[] = [
  null,
  true,
  false,
  [],
  {},
  [1, 2],
  [{}],
  JSON.parse('{"__proto__": {"polluted": 1}}'),
  { constructor: { prototype: { polluted: 1 } } },
];
const WEIRD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  'a b',
  'x\ny',
  '\u001b[31m',
  'k\u202e',
  'k'.repeat(100_000),
  'extra',
];
/** How long a flooded list becomes: under, at and past MAX_GROUPS_PER_SIDE (500). */
const FLOOD_SIZES = [400, 500, 501, 600];
const BREAKERS = [
  ':',
  '[',
  ']',
  '{',
  '}',
  '\t',
  '"',
  "'",
  '&a ',
  '*a',
  '- ',
  '\n  ',
  '#',
  '!!binary ',
  '%',
  '@',
  ',',
  '? ',
  '\u0000',
  '\ufeff',
];

const KINDS = ['delete', 'set', 'add-key', 'typo', 'negate', 'scale', 'flood', 'patch'] as const;
/** How often each kind is drawn: a flooded list costs the YAML parser ~0.2 s, so floods are rare. */
const KIND_WEIGHTS: Readonly<Record<(typeof KINDS)[number], number>> = {
  delete: 2,
  set: 3,
  'add-key': 2,
  typo: 2,
  negate: 1,
  scale: 3,
  flood: 1,
  patch: 4,
};
/** A kind of change and the numbers that choose where and what (each taken modulo the choices there are). */
type Mutation = { readonly kind: (typeof KINDS)[number]; readonly at: number; readonly value: number; readonly key: number };
const kindArbitrary = fc.oneof(...KINDS.map((kind) => ({ weight: KIND_WEIGHTS[kind], arbitrary: fc.constant(kind) })));
const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({ kind: kindArbitrary, at: fc.nat(), value: fc.nat(), key: fc.nat() });

const pick = <T>(items: readonly T[], index: number): T => items[index % items.length] as T;
const isContainer = (value: Json): value is Record<Step, Json> => typeof value === 'object' && value !== null;
/** An own property whatever its name: `container.__proto__ = x` would set the prototype instead. */
const put = (container: Record<Step, Json>, key: Step, value: Json): void => {
  Object.defineProperty(container, key, { value, enumerable: true, configurable: true, writable: true });
};

/** Every path to a value inside `value` (objects and arrays), the root excluded. */
function pathsOf(value: Json, prefix: Step[] = []): Step[][] {
  if (!isContainer(value)) return [];
  const entries: [Step, Json][] = Array.isArray(value) ? value.map((item, i): [Step, Json] => [i, item]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

function valueAt(root: Json, steps: readonly Step[]): Json {
  let value = root;
  for (const step of steps) value = isContainer(value) && Object.hasOwn(value, step) ? value[step] : undefined;
  return value;
}

/** Set `steps` in `root`, making the missing objects on the way (a `units:` change of a new entry). */
function setAt(root: Json, steps: readonly Step[], value: Json): void {
  let container = root;
  for (const [i, step] of steps.entries()) {
    if (!isContainer(container)) return;
    if (i === steps.length - 1) {
      put(container, step, value);
      return;
    }
    if (!isContainer(container[step])) put(container, step, {});
    container = container[step];
  }
}

function mutate(
  document: Json,
  mutation: Mutation,
  keys: readonly string[],
  patches: readonly (readonly Step[])[],
  known: readonly string[],
): void {
  const paths = pathsOf(document);
  // Numbers: the sizes are what these places bound (`set` puts texts and objects anywhere).
  if (mutation.kind === 'patch') {
    if (patches.length > 0) setAt(document, pick(patches, mutation.at), pick(NUMBERS, mutation.key));
    return;
  }
  if (mutation.kind === 'scale') {
    const numeric = paths.filter((steps) => typeof valueAt(document, steps) === 'number');
    if (numeric.length > 0) setAt(document, pick(numeric, mutation.at), pick(NUMBERS, mutation.value));
    return;
  }
  if (mutation.kind === 'flood') {
    // Lists of groups (entries with an id: units, formations) are what MAX_GROUPS_PER_SIDE bounds, and
    // of small entries only (a 100k-character name copied 600 times tests the file size limit instead).
    const lists = paths
      .map((steps) => [steps, valueAt(document, steps)] as const)
      .filter(([, list]) => Array.isArray(list) && list.length > 0 && JSON.stringify(list[0]).length <= 400);
    const groups = lists.filter(
      ([, list]) => isContainer((list as Json[])[0]) && typeof ((list as Json[])[0] as Record<string, Json>).id === 'string',
    );
    if (lists.length === 0) return;
    const [steps, list] = pick(groups.length > 0 && mutation.key % 4 !== 0 ? groups : lists, mutation.at);
    const items = list as Json[];
    // Mostly with distinct ids, so the size limit is met rather than the duplicate-id check.
    const distinct = mutation.key % 3 !== 0;
    const flooded = Array.from({ length: pick(FLOOD_SIZES, mutation.value) }, (_, i) => {
      const copy = structuredClone(items[i % items.length]);
      if (distinct && i >= items.length && isContainer(copy) && typeof copy.id === 'string') copy.id = `${copy.id}-${i}`;
      return copy;
    });
    setAt(document, steps, flooded);
    return;
  }
  if (paths.length === 0) return;
  const steps = pick(paths, mutation.at);
  const container = valueAt(document, steps.slice(0, -1));
  const key = steps.at(-1);
  if (!isContainer(container) || key === undefined) return;
  switch (mutation.kind) {
    case 'delete':
      if (Array.isArray(container) && typeof key === 'number') container.splice(key, 1);
      else delete container[key];
      return;
    case 'set':
      return put(container, key, structuredClone(pick([...NUMBERS, ...STRINGS, ...STRUCTURED, ...known], mutation.value)));
    case 'add-key': {
      const target = container[key];
      const owner = isContainer(target) && !Array.isArray(target) ? target : container;
      // A "constructor" key on an array would break the array itself, not the loader: keys go on mappings.
      if (!Array.isArray(owner))
        put(
          owner,
          pick([...WEIRD_KEYS, ...keys], mutation.key),
          structuredClone(pick([...NUMBERS, ...STRINGS, ...STRUCTURED], mutation.value)),
        );
      return;
    }
    case 'typo': {
      if (Array.isArray(container) || typeof key !== 'string') return;
      const value = container[key];
      const cut = mutation.value % Math.max(1, key.length);
      delete container[key];
      put(container, key.slice(0, cut) + key.slice(cut + 1), value);
      return;
    }
    case 'negate': {
      const value = container[key];
      if (typeof value === 'number') container[key] = -value - 1;
      else if (typeof value === 'string') container[key] = `${value}-unknown`;
      return;
    }
  }
}

/** Every text in a document: the ids and references a `set` may swap in (a unit where an army goes…). */
function textsOf(value: Json): string[] {
  if (typeof value === 'string') return [value];
  if (!isContainer(value)) return [];
  return [...new Set((Array.isArray(value) ? value : Object.values(value)).flatMap(textsOf))];
}

/** Break a file's text: insert a YAML/JSON-significant character, or truncate it. */
function breakText(text: string, breaker: number, position: number, truncate: boolean): string {
  const at = position % Math.max(1, text.length);
  return truncate ? text.slice(0, at) : text.slice(0, at) + pick(BREAKERS, breaker) + text.slice(at);
}

/** One count set to a hostile size and nothing else broken: the cases most likely to be accepted, and so run. */
const sizeArbitrary: fc.Arbitrary<Mutation[]> = fc.tuple(
  fc.record({ kind: fc.constantFrom('scale' as const, 'patch' as const), at: fc.nat(), value: fc.nat(), key: fc.nat() }),
);

const caseArbitrary = fc.record({
  mutations: fc.oneof(
    { weight: 2, arbitrary: fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: sizeArbitrary },
  ),
  // A data file is mutated in one case out of ~8: re-parsing a Battle Forge faction costs ~30 ms.
  dataMutations: fc.oneof(
    { weight: 7, arbitrary: fc.constant([] as Mutation[]) },
    { weight: 1, arbitrary: fc.array(mutationArbitrary, { minLength: 1, maxLength: 2 }) },
  ),
  dataFile: fc.nat(),
  format: fc.constantFrom('yaml', 'json'),
  method: fc.constantFrom<DrawMethod>('tables', 'dice'),
  // One file in six has its text broken (fc.option's `freq: 6` would break five in six: it is the odds of *no* value).
  textBreak: fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ breaker: fc.nat(), position: fc.nat(), truncate: fc.boolean() }) },
  ),
});
type Case = ReturnType<typeof caseArbitrary.generate>['value'];

const TRIALS = 20;
const SLOW_MS = 2000;
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const CASES_PER_CHUNK = 20;

let root: string;
beforeAll(async () => void (root = await mkdtemp(path.join(os.tmpdir(), 'crucible-fuzz-systems-'))));
afterAll(() => rm(root, { recursive: true, force: true, maxRetries: 5 }));

/**
 * The kernel of a loaded scenario, compiled as `crucible run` compiles it, run trial by trial until
 * `trials` or `deadline` ms of CPU (so a slow case costs the test ~2 s, not minutes): the trials run and the CPU time.
 */
function runLoaded(
  loaded: LoadedScenario,
  method: DrawMethod,
  trials: number,
  deadline = Number.POSITIVE_INFINITY,
): { trials: number; ms: number } {
  const started = cpuMilliseconds();
  const kernel = compileSpec(kernelSpecOf(loaded, method));
  const tally = new Tally(kernel.metrics);
  const dice = new StreamDice(streamGenerator(1, 0));
  while (tally.trials < trials && cpuMilliseconds() - started < deadline) runWithDice(kernel, dice, 1, tally);
  return { trials: tally.trials, ms: cpuMilliseconds() - started };
}

/**
 * What is wrong with an InputError's lines (empty: nothing): each must read `<file>: <path>: <message>`,
 * the file one the case wrote or one its scenario names (`armies: ../x` is reported as ../x).
 */
function badLines(error: InputError, named: (file: string) => boolean): string[] {
  const lines = error.message.split('\n');
  if (lines.length !== error.problems.length) return [`${lines.length} lines for ${error.problems.length} problems`];
  return error.problems.flatMap(({ file, path: at, message }, i) => {
    const line = (lines[i] as string).slice(0, 300);
    if (!named(file)) return [`names no file of the case: ${line}`];
    if (!/^\S/.test(at) || !/\S/.test(message)) return [`no field and message: ${line}`];
    if (`${at}${message}`.includes('[object Object]')) return [`[object Object]: ${line}`];
    return [];
  });
}

const describeError = (error: unknown): string =>
  (error instanceof Error ? (error.stack ?? error.message) : String(error)).split('\n').slice(0, 6).join('\n');

type Outcomes = { loaded: number; rejected: number; longestLine: number };

/**
 * Load one case's file and, if accepted, run it: what is wrong (undefined: nothing) — not an
 * InputError, a problem line without a file of the case or a field, a crash or a slow run.
 */
async function tryCase(
  file: string,
  named: (file: string) => boolean,
  method: DrawMethod,
  repro: string,
  outcomes: Outcomes,
): Promise<string | undefined> {
  let loaded: LoadedScenario;
  try {
    loaded = await loadScenarioFile(file);
  } catch (error) {
    if (!(error instanceof InputError)) return `not an InputError: ${describeError(error)}${repro}`;
    outcomes.rejected++;
    outcomes.longestLine = Math.max(outcomes.longestLine, ...error.message.split('\n').map((line) => line.length));
    const bad = badLines(error, named);
    return bad.length > 0 ? `${bad.join('\n')}${repro}` : undefined;
  }
  // A scenario that passes validation must be one the engine can run, quickly (every size is bounded).
  outcomes.loaded++;
  try {
    const ran = runLoaded(loaded, method, TRIALS, SLOW_MS);
    return ran.trials < TRIALS ? `slow: ${ran.trials} of ${TRIALS} trials in ${Math.round(ran.ms)} ms of CPU${repro}` : undefined;
  } catch (error) {
    return `an accepted scenario failed to run: ${describeError(error)}${repro}`;
  }
}

it('covers every rule system engine/registry.ts lists', () => {
  expect(SYSTEMS.map((system) => system.ruleset)).toEqual(RULE_SYSTEMS.map((system) => system.id));
});

describe.each(SYSTEMS)('loadScenarioFile on malformed $ruleset input', (system) => {
  let base: Json;
  let baseTexts: string[];
  const data = new Map<string, { text: string; document: Json }>();
  let shared: string;
  let mutable: string;
  /** The data file the last case of the mutable folder changed, restored before the next. */
  let changed: string | undefined;

  const writeFolder = (folder: string): void => {
    mkdirSync(path.join(folder, path.dirname(system.scenario)), { recursive: true });
    for (const [file, { text }] of data) {
      mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
      writeFileSync(path.join(folder, file), text);
    }
  };

  beforeAll(async () => {
    base = parse(await readFile(system.file(system.scenario), 'utf8'));
    // Read as this rule system's whatever its `ruleset:` names (a plugin's scenario names its module, which the copy would not find).
    if (isContainer(base)) base.ruleset = system.ruleset;
    baseTexts = textsOf(base);
    for (const file of system.dataFiles) {
      const text = await readFile(system.file(file), 'utf8');
      data.set(file, { text, document: parse(text) });
    }
    // Cases that keep the data files share a folder; those that change one share another, whose
    // other files stay as the loader parsed them (it keeps parsed files by path and text).
    shared = path.join(root, system.ruleset, 'shared');
    mutable = path.join(root, system.ruleset, 'mutable');
    writeFolder(shared);
    writeFolder(mutable);
  });

  it('runs the unmutated copy, reading exactly the data files copied', async () => {
    const file = path.join(shared, system.scenario);
    writeFileSync(file, stringify(base));
    const loaded = await loadScenarioFile(file);
    expect(loaded.system.id).toBe(system.ruleset);
    expect(loaded.inputs).toEqual([file, ...system.dataFiles.map((name) => path.join(shared, name))]);
    expect(runLoaded(loaded, 'tables', 50).trials).toBe(50);
  });

  /** Write one case's files; its scenario file, the files a problem may name, and the text to reproduce it. */
  function writeCase(
    number: number,
    { mutations, dataMutations, dataFile, format: drawn, method, textBreak }: Case,
  ): { file: string; named: (file: string) => boolean; repro: string } {
    const folder = dataMutations.length === 0 ? shared : mutable;
    let dataText = '';
    if (folder === mutable) {
      const next = pick(system.dataFiles, dataFile);
      if (changed !== undefined && changed !== next)
        writeFileSync(path.join(mutable, changed), (data.get(changed) as { text: string }).text);
      changed = next;
      const document = structuredClone((data.get(changed) as { document: Json }).document);
      for (const mutation of dataMutations) if (mutation.kind !== 'flood') mutate(document, mutation, system.keys, [], textsOf(document));
      dataText = stringify(document);
      writeFileSync(path.join(mutable, changed), dataText);
    }
    const scenario = structuredClone(base);
    for (const mutation of mutations) mutate(scenario, mutation, system.keys, system.patches, baseTexts);
    // A flooded scenario is written as JSON: YAML-parsing 100 KB takes ~0.3 s, and the size limits are what a flood tests.
    const format = mutations.some((mutation) => mutation.kind === 'flood') ? 'json' : drawn;
    // One file name per format, overwritten case after case (writing is cheaper than creating).
    const file = path.join(folder, path.dirname(system.scenario), `case.${format}`);
    let text = format === 'json' ? JSON.stringify(scenario, null, 2) : stringify(scenario);
    if (textBreak !== null) text = breakText(text, textBreak.breaker, textBreak.position, textBreak.truncate);
    writeFileSync(file, text);
    const repro = `\n--- case ${number}: ${file} (method ${method})\n${text.slice(0, 3000)}${dataText === '' ? '' : `\n--- ${changed ?? ''} changed\n${dataText.slice(0, 3000)}`}`;
    return { file, named: namedBy(folder, file, scenario), repro };
  }

  /** The files a problem of `file` may name: the case's, and what its scenario names (a folder of army files, an armies file), resolved as the loaders resolve it. */
  function namedBy(folder: string, file: string, scenario: Json): (name: string) => boolean {
    const files = new Set([file, ...system.dataFiles.map((name) => path.join(folder, name))]);
    const references = new Set(textsOf(scenario).map((text) => (path.isAbsolute(text) ? text : path.join(path.dirname(file), text))));
    return (name) =>
      files.has(name) || references.has(name) || references.has(path.dirname(name)) || references.has(path.dirname(path.dirname(name)));
  }

  for (const { title, set } of system.regressions) {
    it(`${title}: refused, or runs ${TRIALS} trials in < ${SLOW_MS} ms of CPU (found by this fuzzing)`, async () => {
      const scenario = structuredClone(base);
      for (const [at, value] of set) setAt(scenario, at, value);
      const file = path.join(shared, path.dirname(system.scenario), 'regression.yaml');
      const text = stringify(scenario);
      writeFileSync(file, text);
      const outcomes: Outcomes = { loaded: 0, rejected: 0, longestLine: 0 };
      expect(await tryCase(file, namedBy(shared, file, scenario), 'tables', `\n--- ${file}\n${text}`, outcomes)).toBeUndefined();
    });
  }

  // The cases in chunks, each its own test (as test/sim/fuzz-scenarios.test.ts, which says why): a
  // timed-out chunk fails alone and writes no more files, and a chunk is a fraction of the time
  // the test timeout (180 s, vitest.config.ts) bounds.
  const cases = fc.sample(caseArbitrary, { numRuns: system.cases, seed: SEED });
  const chunks = Array.from({ length: Math.ceil(cases.length / CASES_PER_CHUNK) }, (_, chunk) => chunk);
  const outcomes: Outcomes = { loaded: 0, rejected: 0, longestLine: 0 };
  let tried = 0;
  it.each(chunks)(
    `throws only InputErrors naming a file of the case and a field, or runs ${TRIALS} trials in < ${SLOW_MS} ms of CPU (cases of chunk %i)`,
    async (chunk) => {
      let over = false;
      onTestFinished(() => {
        over = true;
      });
      // Every case is tried, without shrinking: the findings of one run, each with the files to reproduce it.
      const findings: string[] = [];
      for (let number = chunk * CASES_PER_CHUNK; number < Math.min(cases.length, (chunk + 1) * CASES_PER_CHUNK) && !over; number++) {
        const fuzzed = cases[number] as Case;
        const { file, named, repro } = writeCase(number, fuzzed);
        const finding = await tryCase(file, named, fuzzed.method, repro, outcomes);
        if (finding !== undefined) findings.push(finding);
        tried++;
      }
      expect(findings).toEqual([]);
    },
  );

  it(`reached no prototype and exercised both outcomes over all ${system.cases} cases`, () => {
    expect(tried).toBe(system.cases);
    // Another seed (FUZZ_SEED) is exploration: say what it did.
    if (process.env.FUZZ_SEED !== undefined)
      console.log(
        `${system.ruleset} seed ${SEED}: ${outcomes.loaded} loaded, ${outcomes.rejected} rejected, longest problem line ${outcomes.longestLine} characters`,
      );
    // No key of any case (`__proto__`, `constructor`, `prototype` among them) reached a prototype.
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Both outcomes must occur, or the generator is not exercising what it claims to.
    expect(outcomes.rejected).toBeGreaterThan(system.cases / 2);
    expect(outcomes.loaded).toBeGreaterThan(0);
  });
});

describe('a ruleset naming a device instead of a module', () => {
  // Found by this fuzzing: `ruleset: /dev/zero` was imported as a plugin module and read without end
  // (the CLI: over 60 s and 5 GB; a FIFO blocks for good). /dev/null reads empty at once, so this
  // asks, without the cost, that a device be refused as data files are (input/data-file.ts readInputText).
  it('is refused as not a regular file, before it is read', async () => {
    const file = path.join(root, 'device.yaml');
    writeFileSync(file, 'ruleset: /dev/null\nname: A device as the rules\n');
    const error = await loadScenarioFile(file).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([{ file, path: 'ruleset', message: expect.stringMatching(/not a regular file/) }]);
  });
});
