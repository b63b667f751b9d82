import type { Problem } from './errors.js';
import { groupThousands } from './thousands.js';

/**
 * The bounds on what a data file may hold, shared by the JSON reader (data-file.ts) and the YAML
 * one (yaml-data.ts, imported only when a YAML file is read).
 */

export type Parsed = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly problems: Problem[] };

/**
 * The largest scenario, units or army file read: the largest bundled one is ~50 KB; 2 MB keeps any
 * file's parse near a second and a few hundred MB (the YAML parser takes ~5 s for 8 MB of one
 * quoted string, and ~25× the text in memory).
 */
export const MAX_DATA_FILE_BYTES = 2 * 1024 * 1024;

/**
 * How deeply lists and mappings may nest inside one another in a data file, a checkpoint or a
 * report input (a top-level mapping is level 1; bundled files nest 10 deep at most). Checked on
 * the text before anything is built: the YAML parser slows with depth (2 MB of `[[[…` took 9 s and
 * 1.2 GB), and every recursive walk would overflow the stack some thousands deep.
 */
export const MAX_NESTING = 64;
export const TOO_DEEP = `lists and mappings nested more than ${MAX_NESTING} levels deep (the most crucible reads)`;

/**
 * How many values a YAML data file may hold: mapping keys, list items and scalars, each alias
 * counted as what it repeats. Bundled files hold at most ~4,100 (data/battleforge/index.yaml); the
 * YAML parser takes ~10 µs a value, so 100,000 keeps a file's parse near a second (200,000 keys took
 * 8–11 s and 470 MB). JSON is not counted: V8 parses it about ten times faster (200,000 keys in
 * ~0.5 s), and MAX_DATA_FILE_BYTES bounds it.
 */
export const MAX_DATA_VALUES = 100_000;
export const TOO_MANY_VALUES = `the file holds more than ${groupThousands(MAX_DATA_VALUES)} values (keys, list items and scalars, an alias counted as what it repeats), the most crucible reads`;

/**
 * Anchors (`&name`) and aliases (`*name`) a YAML file may hold, together (bundled files hold none).
 * Turning the document into data, the yaml library resolves each alias by a scan of the anchors and
 * aliases before it: quadratic (100,000 aliases ran for minutes, 45,000 anchors and 1,000 aliases
 * took 2 s).
 */
export const MAX_YAML_ANCHORS_AND_ALIASES = 1_000;
