/**
 * Report pages from your own analyses (what notebooks/ writes with `npm start`): charts as
 * Vega-Lite specs drawn to SVG and PNG, pages of charts and tables with their provenance, and the
 * number formats both use. Drawing needs the optional packages vega, vega-lite, vega-embed,
 * @resvg/resvg-js and @expo-google-fonts/inter beside crucible (npm install them): the main entry
 * point never loads them.
 *
 * @example
 *   import { distributionChart, writePage } from 'crucible-lab/reports';
 */
export {
  atLeastChart,
  type Chart,
  type ChartOptions,
  type DifferenceChartOptions,
  differenceChart,
  type DifferenceRow,
  type DistributionChartOptions,
  distributionChart,
  heatmapChart,
  type HeatmapCell,
  type HeatmapOptions,
  type SweepChartOptions,
  sweepChart,
  type SweepLinePoint,
} from './reports/charts.js';
export { differenceText, estimateText, exactPercentText, meanText, percentText } from './reports/format.js';
export { type PageSection, type PageTable, type Provenance, type ReportPage, slugify, writeIndex, writePage } from './reports/page.js';
export { balancePage, type BalancePageOptions } from './reports/balance-page.js';
export { writeAnalysisReport } from './reports/analysis-pages.js';
