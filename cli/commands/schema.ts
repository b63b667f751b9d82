import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import type { RuleSystem, SchemaFile } from '../../engine/rule-system.js';
import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { trustPlugins } from '../../input/plugin-trust.js';
import { resolveRuleSystem } from '../../input/rule-systems.js';
import { writeAtomically, writeFailure } from '../../sim/atomic-write.js';
import { InputError, ROOT_PATH } from '../../input/errors.js';
import { variantsSchema } from '../../input/scenario-patch.js';
import { EXIT_OK, type Io } from './io.js';

/**
 * JSON Schemas of the file formats, for editors: a YAML file starting with
 * `# yaml-language-server: $schema=<path to schema>/heroic-scenario.schema.json` gets completion,
 * hover text (the zod descriptions) and typo squiggles in VS Code's YAML extension.
 * io 'input': the schema describes what a person writes (fields with defaults are optional).
 */
/**
 * A scenario file as written: its rule system's format plus the `variants` any scenario file may
 * declare for `crucible compare` (read apart by input/scenario-file.ts, so not in the formats).
 */
const scenarioFile = (schema: z.ZodObject): z.ZodObject =>
  schema.extend({
    variants: variantsSchema.optional().describe('named sets of field changes, compared with crucible compare --variant <name>'),
  });

/** The JSON Schema files of a rule system: its scenario format (with variants), then its data files'. */
export const schemaFilesOf = (system: RuleSystem): SchemaFile[] => [
  { name: `${system.id}-scenario.schema.json`, title: `crucible ${system.id} scenario`, schema: scenarioFile(system.scenarioSchema) },
  ...(system.dataSchemas ?? []),
];

/** The built-in rule systems' schema files, in the order of engine/registry.ts. */
export const SCHEMA_FILES: readonly SchemaFile[] = (await loadBuiltInRuleSystems()).flatMap(schemaFilesOf);

export function jsonSchemaText(title: string, schema: z.ZodType): string {
  const { $schema, ...rest } = z.toJSONSchema(schema, { io: 'input' });
  return `${JSON.stringify({ $schema, title, ...rest }, null, 2)}\n`;
}

/** Create `directory` if missing (not recursively: Node 20's recursive mkdir can spin forever under /proc). */
async function ensureDirectory(directory: string): Promise<void> {
  try {
    await mkdir(directory);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') return;
    const reason = code === 'ENOENT' ? 'its parent directory does not exist' : (error as Error).message;
    throw InputError.at(directory, ROOT_PATH, `cannot create the output directory: ${reason}`);
  }
}

/**
 * A plugin's schema files. Its scenarios name it by module path, not by id, so the written schema
 * takes any text for `ruleset`.
 */
async function pluginSchemaFiles(plugin: string): Promise<SchemaFile[]> {
  // A path typed without ./ (examples/homebrew/index.ts) is still a path when it exists.
  const module = !/^[./]/.test(plugin) && !path.isAbsolute(plugin) && existsSync(plugin) ? `./${plugin}` : plugin;
  let system: RuleSystem;
  try {
    // Naming it on the command line is what trusts it to run.
    ({ system } = await resolveRuleSystem(path.join(process.cwd(), '--plugin'), module, trustPlugins([plugin])));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(error.problems.map((problem) => ({ ...problem, file: '--plugin', path: plugin })));
  }
  const byModule = system.scenarioSchema.extend({
    ruleset: z.string().min(1).describe(`the plugin module, relative to the scenario file (rule system ${system.id})`),
  });
  return schemaFilesOf({ ...system, scenarioSchema: byModule });
}

/**
 * Write the schema files into `outDirectory`: the built-ins', or with `plugin` (a module path, as a
 * scenario's `ruleset:` names it, relative to the current directory) that plugin's.
 */
export async function schemaCommand(outDirectory: string, io: Io, plugin?: string): Promise<number> {
  const files = plugin === undefined ? SCHEMA_FILES : await pluginSchemaFiles(plugin);
  await ensureDirectory(outDirectory);
  for (const { name, title, schema } of files) {
    const file = path.join(outDirectory, name);
    try {
      await writeAtomically(file, jsonSchemaText(title, schema));
    } catch (error) {
      // An unwritable --out is the user's input problem, not a crash.
      throw InputError.at(file, ROOT_PATH, `cannot write: ${writeFailure(error)}`);
    }
    io.stdout(`wrote ${file}\n`);
  }
  return EXIT_OK;
}

export function registerSchema(program: Command, io: Io, setStatus: (status: number) => void): void {
  program
    .command('schema')
    .description('write JSON Schemas of the scenario and units files, for editor completion and checking')
    .option('-o, --out <dir>', 'directory to write the schema files into', 'schema')
    .option(
      '--plugin <module>',
      "a plugin rule system's module (e.g. ./examples/homebrew/index.ts): write its schemas instead of the built-ins'",
    )
    .addHelpText(
      'after',
      `
Writes into <dir>:
${SCHEMA_FILES.map((file) => `  ${file.name.padEnd(36)}${file.title}`).join('\n')}
The army and faction files' schemas (warmaster-units, battleforge-units, battleforge-index) are
written with the data, by npm run data:warmaster and npm run data:battleforge.

To use a schema in an editor with the YAML language server (e.g. VS Code's YAML extension), start
the file with a comment pointing at it, relative to the file:
  # yaml-language-server: $schema=../../../schema/heroic-scenario.schema.json

Examples:
  $ crucible schema
  $ crucible schema --out /tmp/schemas
  $ crucible schema --plugin ./examples/homebrew/index.ts --out examples/homebrew/schema`,
    )
    .action(async (options: { out: string; plugin?: string }) => {
      setStatus(await schemaCommand(options.out, io, options.plugin));
    });
}
