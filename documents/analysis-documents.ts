import { type BalanceDocument, balanceDocumentSchema } from './balance-document.js';
import { type CompareDocument, compareDocumentSchema } from './compare-document.js';
import { type MatchupsDocument, matchupsDocumentSchema } from './matchups-document.js';
import { type SweepDocument, sweepDocumentSchema } from './sweep-document.js';
import { parseWith } from '../input/data-file.js';
import type { Problem } from '../input/errors.js';

/**
 * The analysis commands' self-describing JSON (`matchups`, `compare`, `sweep`, `balance` with
 * --json): each document's `kind` names its schema. Reading one back needs only zod, not the
 * charts (`crucible report` checks every file before it loads vega).
 */
export type AnalysisDocument = MatchupsDocument | CompareDocument | SweepDocument | BalanceDocument;
export type AnalysisKind = AnalysisDocument['kind'];

export const ANALYSIS_KINDS: readonly AnalysisKind[] = ['matchups', 'compare', 'sweep', 'balance'];

export function isAnalysisKind(kind: unknown): kind is AnalysisKind {
  return typeof kind === 'string' && (ANALYSIS_KINDS as readonly string[]).includes(kind);
}

/** A document of `kind` checked against its schema: the document, or every problem (paths inside the item). */
export function parseAnalysisDocument(file: string, kind: AnalysisKind, item: unknown): { value?: AnalysisDocument; problems: Problem[] } {
  switch (kind) {
    case 'matchups':
      return parseWith(matchupsDocumentSchema, file, item);
    case 'compare':
      return parseWith(compareDocumentSchema, file, item);
    case 'sweep':
      return parseWith(sweepDocumentSchema, file, item);
    case 'balance':
      return parseWith(balanceDocumentSchema, file, item);
  }
}
