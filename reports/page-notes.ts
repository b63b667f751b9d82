/**
 * Methods notes every analysis page shares: the rule constants changed from the text, the plugin
 * (its version and code hash), the mode — what a saved document records of the rules in force.
 */
export interface RulesRecord {
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly mode?: string | undefined;
  readonly rulesChanged?: Readonly<Record<string, unknown>> | undefined;
  readonly plugin?: { readonly module: string; readonly version: string; readonly codeHash: string } | undefined;
}

export function rulesNotes(record: RulesRecord): string[] {
  const changed = Object.entries(record.rulesChanged ?? {}).map(([name, value]) => `${name} ${JSON.stringify(value)}`);
  return [
    `${[
      `${record.ruleset} rules (engine ${record.engineVersion})${record.mode === undefined ? '' : `, mode ${record.mode}`}`,
      record.plugin === undefined
        ? ''
        : `, a plugin (${record.plugin.module}, version ${record.plugin.version}, code sha256 ${record.plugin.codeHash.slice(0, 12)})`,
      changed.length === 0
        ? ', every rule constant as the text has it'
        : `, with rule constants changed from the text: ${changed.join(', ')}`,
    ].join('')}.`,
  ];
}
