import { RULE_SYSTEMS } from '../platform/built-ins.js';
import { bundledFilesUnder } from '../platform/volume.js';

/** The bundled scenarios and rosters, by rule system (the registry's order), for the pickers. */

export interface BundledFile {
  readonly file: string;
  /** The file name in words: "knights-vs-regenerating-ogre.yaml" → "Knights vs regenerating ogre". */
  readonly title: string;
}

const titleOf = (file: string): string => {
  const stem = (file.split('/').at(-1) ?? file).replace(/\.(ya?ml|json)$/, '').replaceAll(/[-_]+/g, ' ');
  return stem.charAt(0).toUpperCase() + stem.slice(1);
};

const filesOf = (folder: string): BundledFile[] => bundledFilesUnder(folder).map((file) => ({ file, title: titleOf(file) }));

export const BUNDLED_SCENARIOS: readonly { readonly ruleset: string; readonly title: string; readonly files: readonly BundledFile[] }[] =
  RULE_SYSTEMS.map((system) => ({
    ruleset: system.id,
    title: system.title,
    files: filesOf(`data/${system.id}/scenarios`),
  }));

export const bundledRosters = (ruleset: string): BundledFile[] => filesOf(`data/${ruleset}/rosters`);

export const DEFAULT_SCENARIO = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';

/** Where a new or imported scenario of `ruleset` lives: beside the bundled ones, so `../units.yaml` and the like resolve. */
export const scenarioPathFor = (ruleset: string, name: string): string => `data/${ruleset}/scenarios/${name}`;
