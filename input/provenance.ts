import { bundledDataLabel } from './bundled-data.js';
import { platform, type PluginInfo } from './platform.js';
import type { LoadedScenario } from './scenario-file.js';

/**
 * What a result records about the rules and data it was computed with, beyond the scenario's name,
 * seed and trials: the rule system and engine version, its mode, every rule knob the scenario sets
 * to other than the text's value, a hash of the units actually used (after any `units:` changes),
 * the data fields read from crucible's bundled data instead of beside the scenario, and a plugin's
 * module, version and code hash. Two results with the same provenance were computed
 * by the same rules on the same profiles.
 */
export interface RulesProvenance {
  readonly ruleset: string;
  readonly engineVersion: string;
  /** The scenario's mode where its rule system has several (heroic attack/engagement, Battle Forge game/attack). */
  readonly mode?: string;
  /** Rule knobs (`rules:`) set to other than the text's value, with their value. */
  readonly rulesChanged?: Readonly<Record<string, unknown>>;
  /** SHA-256 of the units, army entries or profiles the kernel read (hex). */
  readonly unitsDigest: string;
  /**
   * Data fields left at a default that led nowhere beside the scenario, so read from crucible's
   * bundled data (engine/data-location.ts): field → the bundled path, `armies: data/warmaster/armies`.
   */
  readonly bundledData?: Readonly<Record<string, string>>;
  readonly plugin?: PluginInfo;
}

const json = (value: unknown): string => JSON.stringify(value);

/** The knobs of `rules` that differ from the rule system's defaults (the text's values). */
export function rulesChanged(loaded: LoadedScenario): Record<string, unknown> {
  const schema = loaded.system.rulesSchema;
  const rules = (loaded.scenario as unknown as { rules?: unknown }).rules;
  if (schema === undefined || rules === null || typeof rules !== 'object') return {};
  const defaults = schema.parse({}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rules).filter(([name, value]) => json(value) !== json(defaults[name])));
}

export function provenanceOf(loaded: LoadedScenario): RulesProvenance {
  const mode = loaded.system.mode?.(loaded.scenario);
  const changed = rulesChanged(loaded);
  return {
    ruleset: loaded.system.id,
    engineVersion: loaded.system.version,
    ...(mode === undefined ? {} : { mode }),
    ...(Object.keys(changed).length === 0 ? {} : { rulesChanged: changed }),
    unitsDigest: platform().sha256(json(loaded.refs)),
    ...(loaded.bundled === undefined
      ? {}
      : { bundledData: Object.fromEntries(loaded.bundled.map((data) => [data.field, bundledDataLabel(data.path)])) }),
    ...(loaded.plugin === undefined ? {} : { plugin: loaded.plugin }),
  };
}

/** Provenance as plain JSON fields (every `--json` document writes them alike; objects copied). */
export function provenanceJson(provenance: RulesProvenance): RulesProvenance {
  return {
    ruleset: provenance.ruleset,
    engineVersion: provenance.engineVersion,
    ...(provenance.mode === undefined ? {} : { mode: provenance.mode }),
    ...(provenance.plugin === undefined ? {} : { plugin: { ...provenance.plugin } }),
    ...(provenance.rulesChanged === undefined ? {} : { rulesChanged: { ...provenance.rulesChanged } }),
    unitsDigest: provenance.unitsDigest,
    ...(provenance.bundledData === undefined ? {} : { bundledData: { ...provenance.bundledData } }),
  };
}

/** Provenance as lines of a text report (after `ruleset …`): what differs from the built-in rules as printed. */
export function provenanceLines(provenance: RulesProvenance, indent: string): string[] {
  const lines: string[] = [];
  if (provenance.plugin !== undefined) {
    lines.push(
      `${indent}plugin   ${provenance.plugin.module} (${provenance.plugin.id} ${provenance.plugin.version}, code sha256 ${provenance.plugin.codeHash.slice(0, 12)})`,
    );
  }
  const changed = Object.entries(provenance.rulesChanged ?? {});
  if (changed.length > 0)
    lines.push(`${indent}rules    changed from the text: ${changed.map(([name, value]) => `${name} ${json(value)}`).join(', ')}`);
  lines.push(`${indent}units    sha256 ${provenance.unitsDigest.slice(0, 12)} (the profiles used)`);
  const bundled = Object.entries(provenance.bundledData ?? {});
  for (const [field, label] of bundled)
    lines.push(`${indent}data     crucible's bundled ${label}, for ${field} (its default finds nothing beside the scenario)`);
  return lines;
}
