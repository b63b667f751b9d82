import { z } from 'zod';

/**
 * The pieces every `--json` document shares (run results, compare, sweep, matchups, balance), so
 * that one schema says what an interval, a plugin record or a field named in words looks like.
 */
export const intervalSchema = z.object({ low: z.number(), high: z.number() });

/** input/rule-systems.ts PluginInfo: the plugin module a result was computed with. */
export const pluginSchema = z.object({ module: z.string(), id: z.string(), version: z.string(), codeHash: z.string() });

/** A scenario field as input/field-labels.ts names it. */
export const fieldSchema = z.object({
  path: z.string().describe('the field as the scenario file and --set name it, e.g. sides[0].groups[0].models'),
  label: z.string().describe('the field in words, e.g. "Sylvan Knights › knights (Sylvan Knight): models"'),
  title: z.string().describe('the field alone, e.g. "models"'),
  owner: z.string().optional().describe('what the field belongs to, when that is named'),
  description: z.string().optional().describe("the scenario format's description of the field"),
});
