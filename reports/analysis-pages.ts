import type { AnalysisDocument } from '../documents/analysis-documents.js';
import { balancePage } from './balance-page.js';
import { comparePage } from './compare-page.js';
import type { HeatmapMeasure } from './heatmap.js';
import { matchupsPage } from './matchups-page.js';
import { DEFAULT_REPORT_DIRECTORY, type ReportPage, writePage } from './page.js';
import { sweepPage } from './sweep-page.js';

export {
  ANALYSIS_KINDS,
  type AnalysisDocument,
  type AnalysisKind,
  isAnalysisKind,
  parseAnalysisDocument,
} from '../documents/analysis-documents.js';

/**
 * Report pages from the analysis commands' self-describing JSON (`matchups`, `compare`, `sweep`,
 * `balance` with --json; analysis-documents.ts reads them back): each document's `kind` names its
 * page. `crucible report` reads these documents; the commands' `--report DIR` writes the page directly.
 */
export interface AnalysisPageOptions {
  /** The page's file name without .html (default: from the kind and what was analysed). */
  readonly slug?: string;
  readonly title?: string;
  /** Matchup heatmaps and matrices: the expected score (default), or P(win), P(draw), P(loss). */
  readonly measure?: HeatmapMeasure;
}

export function analysisPage(document: AnalysisDocument, options: AnalysisPageOptions = {}): ReportPage {
  switch (document.kind) {
    case 'matchups':
      return matchupsPage(document, options);
    case 'compare':
      return comparePage(document, options);
    case 'sweep':
      return sweepPage(document, options);
    case 'balance':
      return balancePage(document, options);
  }
}

/** Writes the document's page into `outDirectory` (its charts, the assets, the index) and returns the page's path. */
export async function writeAnalysisReport(
  document: AnalysisDocument,
  outDirectory: string = DEFAULT_REPORT_DIRECTORY,
  options: AnalysisPageOptions = {},
): Promise<string> {
  return writePage(analysisPage(document, options), outDirectory);
}
