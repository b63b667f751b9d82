import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { scenarioSchema, unitsFileSchema } from '../../engine/heroic/schema.js';
import { scenarioSchema as warmasterScenarioSchema } from '../../engine/warmaster/schema.js';
import { scenarioSchema as battleforgeScenarioSchema } from '../../engine/battleforge/schema.js';
import { armiesFileSchema as epicArmiesSchema, scenarioSchema as epicScenarioSchema } from '../../engine/epic/schema.js';
import { InputError, ROOT_PATH } from '../../sim/errors.js';
import { variantsSchema } from '../../sim/scenario-patch.js';
import { EXIT_OK, type Io } from './io.js';

/**
 * JSON Schemas of the file formats, for editors: a YAML file starting with
 * `# yaml-language-server: $schema=<path to schema>/heroic-scenario.schema.json` gets completion,
 * hover text (the zod descriptions) and typo squiggles in VS Code's YAML extension.
 * io 'input': the schema describes what a person writes (fields with defaults are optional).
 */
/**
 * A scenario file as written: its rule system's format plus the `variants` any scenario file may
 * declare for `crucible compare` (read apart by sim/scenario-file.ts, so not in the formats).
 */
const scenarioFile = (schema: z.ZodObject): z.ZodObject =>
  schema.extend({ variants: variantsSchema.optional().describe('named sets of field changes, compared with crucible compare --variant <name>') });

export const SCHEMA_FILES = [
  { name: 'heroic-scenario.schema.json', title: 'crucible heroic scenario', schema: scenarioFile(scenarioSchema) },
  { name: 'heroic-units.schema.json', title: 'crucible heroic units', schema: unitsFileSchema },
  // The army files' schema (warmaster-units.schema.json) is written by scripts/convert-warmaster.ts with the files.
  { name: 'warmaster-scenario.schema.json', title: 'crucible warmaster scenario', schema: scenarioFile(warmasterScenarioSchema) },
  // Likewise battleforge-units and battleforge-index (scripts/convert-battleforge.ts).
  { name: 'battleforge-scenario.schema.json', title: 'crucible battleforge scenario', schema: scenarioFile(battleforgeScenarioSchema) },
  { name: 'epic-scenario.schema.json', title: 'crucible epic rally scenario', schema: scenarioFile(epicScenarioSchema) },
  { name: 'epic-armies.schema.json', title: 'crucible epic armies', schema: epicArmiesSchema },
] as const;

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

export async function schemaCommand(outDirectory: string, io: Io): Promise<number> {
  await ensureDirectory(outDirectory);
  for (const { name, title, schema } of SCHEMA_FILES) {
    const file = path.join(outDirectory, name);
    try {
      await writeFile(file, jsonSchemaText(title, schema));
    } catch (error) {
      // An unwritable --out is the user's input problem, not a crash.
      throw InputError.at(file, ROOT_PATH, `cannot write: ${(error as Error).message}`);
    }
    io.stdout(`wrote ${file}\n`);
  }
  return EXIT_OK;
}
