/**
 * Every notebook, in turn: what `npm start` runs. Writes out/index.html and prints its path.
 * Run: npx tsx notebooks/all.ts
 */
import path from 'node:path';
import { writeIndex } from '../reports.js';
import { aoeVsFormationSize } from './aoe-vs-formation-size.js';
import { battleforgePlans } from './battleforge-plans.js';
import { epicRallyByInitiative } from './epic-rally-by-initiative.js';
import { formationsVsSingly } from './formations-vs-singly.js';
import { reportsDirectory } from './lib.js';
import { warmasterCosts } from './warmaster-costs.js';

const started = performance.now();
for (const notebook of [formationsVsSingly, aoeVsFormationSize, warmasterCosts, battleforgePlans, epicRallyByInitiative]) {
  const page = await notebook(reportsDirectory);
  console.error(`wrote ${path.relative(process.cwd(), page)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
const index = await writeIndex(reportsDirectory);
console.log(`report: ${index}`);
