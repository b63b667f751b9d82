import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { optionsSchema as battleforgeOptions } from '../../engine/battleforge/schema.js';
import { optionsSchema as epicOptions } from '../../engine/epic/schema.js';
import { optionsSchema as heroicOptions } from '../../engine/heroic/schema.js';
import { optionsSchema as warmasterOptions } from '../../engine/warmaster/schema.js';
import { REPOSITORY, repositoryTree } from '../helpers/repository.js';

/**
 * Every ruling the tree cites resolves: `§N` (or a range `§N–M`) anywhere in the code, tests, data
 * or docs must be a `### §N …` heading of docs/rulings.md, and every option whose description cites
 * a ruling must be named under that ruling.
 */

const RULINGS_FILE = path.join(REPOSITORY, 'docs/rulings.md');
const rulingsText = readFileSync(RULINGS_FILE, 'utf8');
/** `### §12 Attacks` → 12 → the section's text up to the next heading. */
const sections = new Map<number, string>();
for (const match of rulingsText.matchAll(/^### §(\d+) [^\n]+\n([\s\S]*?)(?=^##|(?![\s\S]))/gm))
  sections.set(Number(match[1]), match[2] ?? '');

/** The ruling numbers one text cites: `§5`, `§ 5`, and every number of `§12–18` or `§6-7`. */
function citedRulings(text: string): number[] {
  const cited: number[] = [];
  for (const match of text.matchAll(/§ ?(\d+)(?:\s*[–-]\s*§?(\d+))?/g)) {
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let number = first; number <= Math.max(first, last); number += 1) cited.push(number);
  }
  return cited;
}

describe('docs/rulings.md', () => {
  it('numbers its rulings §1 to §28, once each and in order', () => {
    const numbers = [...rulingsText.matchAll(/^### §(\d+) /gm)].map((match) => Number(match[1]));
    expect(numbers).toEqual(Array.from({ length: 28 }, (_, index) => index + 1));
  });

  it('has every ruling the tree cites', () => {
    const unresolved: string[] = [];
    for (const file of repositoryTree().textFiles) {
      if (file === RULINGS_FILE) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const number of citedRulings(line))
            if (!sections.has(number)) unresolved.push(`${path.relative(REPOSITORY, file)}:${index + 1}: §${number}`);
        });
    }
    expect(unresolved).toEqual([]);
  });

  it('reads ranges and single citations alike', () => {
    expect(citedRulings('rulings §12–18 and §5; § 3; §6-7')).toEqual([12, 13, 14, 15, 16, 17, 18, 5, 3, 6, 7]);
  });

  it('names, under its ruling, every option whose description cites one', () => {
    const schemas: Record<string, z.ZodObject> = {
      heroic: heroicOptions,
      warmaster: warmasterOptions,
      battleforge: battleforgeOptions,
      epic: epicOptions,
    };
    const missing: string[] = [];
    for (const [ruleset, schema] of Object.entries(schemas))
      for (const [option, field] of Object.entries(schema.shape)) {
        const description = (field as z.ZodType).description ?? '';
        for (const number of citedRulings(description))
          if (!(sections.get(number) ?? '').includes(`\`${option}\``)) missing.push(`${ruleset} option ${option} (§${number})`);
      }
    expect(missing).toEqual([]);
  });
});
