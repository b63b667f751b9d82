import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { renderAsync } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { CHART_FONT, type Chart } from './chart-kit.js';

/**
 * Drawing charts in Node, headless: Vega-Lite compiles the chart's spec to Vega, a Vega View with
 * no renderer (no canvas, no DOM) lays it out and writes SVG, and resvg rasterises the SVG to PNG.
 * Nothing is fetched: the specs carry their data inline and the view's loader refuses every URL.
 * resvg draws no text without fonts, so it gets Inter from an npm package (@expo-google-fonts/inter,
 * TTF files) and never the machine's fonts: the PNG is the same on every machine. Without a canvas,
 * Vega guesses every text's width as 0.8 em a character (too wide: labels cut short, wide margins),
 * so this module gives Vega the real advance widths of the same font files (textMetrics.width, the
 * hook Vega keeps for this): the layout fits the text resvg draws.
 */

const require = createRequire(import.meta.url);
const fontDirectory = dirname(require.resolve('@expo-google-fonts/inter/package.json'));

/** The TTF files resvg draws with: Inter regular (labels) and bold (titles). */
export const FONT_FILES: readonly string[] = [
  join(fontDirectory, '400Regular', 'Inter_400Regular.ttf'),
  join(fontDirectory, '700Bold', 'Inter_700Bold.ttf'),
];

// ---------------------------------------------------------------- text widths from the font files

/** Advance widths (in em) of a TrueType font's characters, read from its cmap (format 4) and hmtx tables. */
export function advanceWidths(font: Uint8Array): Map<number, number> {
  const data = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = new Map<string, number>();
  for (let i = 0, count = data.getUint16(4); i < count; i++) {
    const record = 12 + 16 * i;
    tables.set(String.fromCharCode(...font.subarray(record, record + 4)), data.getUint32(record + 8));
  }
  const table = (tag: string): number => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`the font has no ${tag} table`);
    return offset;
  };
  const unitsPerEm = data.getUint16(table('head') + 18);
  const metrics = data.getUint16(table('hhea') + 34);
  const hmtx = table('hmtx');
  const advance = (glyph: number): number => data.getUint16(hmtx + 4 * Math.min(glyph, metrics - 1)) / unitsPerEm;
  const cmap = table('cmap');
  let subtable: number | undefined;
  for (let i = 0, count = data.getUint16(cmap + 2); i < count; i++) {
    const record = cmap + 4 + 8 * i;
    const offset = cmap + data.getUint32(record + 4);
    if (data.getUint16(record) === 3 && data.getUint16(record + 2) === 1 && data.getUint16(offset) === 4) subtable = offset;
  }
  if (subtable === undefined) throw new Error('the font has no Unicode BMP cmap (format 4)');
  const segments = data.getUint16(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  const widths = new Map<number, number>();
  for (let s = 0; s < segments; s++) {
    const start = data.getUint16(starts + 2 * s);
    const end = data.getUint16(ends + 2 * s);
    const delta = data.getUint16(deltas + 2 * s);
    const rangeOffset = data.getUint16(rangeOffsets + 2 * s);
    for (let code = start; code <= end && code !== 0xffff; code++) {
      let glyph = rangeOffset === 0 ? code : data.getUint16(rangeOffsets + 2 * s + rangeOffset + 2 * (code - start));
      if (rangeOffset === 0 || glyph !== 0) glyph = (glyph + delta) & 0xffff;
      if (glyph !== 0) widths.set(code, advance(glyph));
    }
  }
  return widths;
}

const [regularWidths, boldWidths] = FONT_FILES.map((file) => advanceWidths(readFileSync(file))) as [
  Map<number, number>,
  Map<number, number>,
];

interface TextItem {
  readonly fontSize?: number | string | null;
  readonly fontWeight?: number | string | null;
  readonly limit?: number | string | null;
}

/** The width Vega lays a text out with: Inter's advances (no kerning), capped at the item's limit, past which Vega truncates it. */
export function textWidth(item: TextItem, text: unknown): number {
  const size = item.fontSize == null ? 11 : Number(item.fontSize) || 0;
  const weight = item.fontWeight;
  const widths = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600 ? boldWidths : regularWidths;
  const fallback = widths.get(0x6e) ?? 0.55; // 'n'
  let em = 0;
  for (const character of text == null ? '' : String(text).trim()) em += widths.get(character.codePointAt(0) ?? 0) ?? fallback;
  const limit = Number(item.limit) || 0;
  return limit > 0 ? Math.min(em * size, limit) : em * size;
}

(vega as unknown as { textMetrics: { width: typeof textWidth } }).textMetrics.width = textWidth;

// ---------------------------------------------------------------- compiling and rendering

type CompileOptions = NonNullable<Parameters<typeof compile>[1]>;
type Logger = NonNullable<CompileOptions['logger']>;

/** A logger that keeps warnings (and throws on errors) instead of printing them. */
function collectingLogger(warnings: string[]): Logger {
  let level = 2; // vega-util's Warn
  const logger: Logger = {
    level(value?: number) {
      if (value === undefined) return level;
      level = value;
      return logger;
    },
    error(...args: unknown[]) {
      throw new Error(args.map(String).join(' '));
    },
    warn(...args: unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}

/** A Vega loader that loads nothing: charts carry their data inline, and rendering never touches the network or disk. */
const refuse = (what: string): Promise<never> =>
  Promise.reject(new Error(`chart rendering loads no external resources (asked for ${what})`));
const NO_LOADER: vega.Loader = {
  load: (uri) => refuse(uri),
  sanitize: (uri) => refuse(uri),
  http: (uri) => refuse(uri),
  file: (filename) => refuse(filename),
};

export interface CompiledChart {
  /** The Vega spec Vega-Lite compiled the chart to. */
  readonly vega: vega.Spec;
  /** Vega-Lite's warnings (a well-made chart has none). */
  readonly warnings: readonly string[];
}

/** Vega-Lite → Vega, keeping the compiler's warnings. */
export function compileChart(chart: Chart): CompiledChart {
  const warnings: string[] = [];
  const compiled = compile(chart.spec as unknown as TopLevelSpec, { logger: collectingLogger(warnings) });
  return { vega: compiled.spec, warnings };
}

export interface RenderedSvg {
  readonly svg: string;
  /** Vega-Lite's and Vega's warnings. */
  readonly warnings: readonly string[];
}

/** The chart as SVG with the warnings of both compilers. */
export async function renderChart(chart: Chart): Promise<RenderedSvg> {
  const { vega: spec, warnings: compileWarnings } = compileChart(chart);
  const warnings = [...compileWarnings];
  const view = new vega.View(vega.parse(spec), { renderer: 'none', loader: NO_LOADER, logger: collectingLogger(warnings) });
  try {
    const svg = await view.toSVG();
    return { svg, warnings };
  } finally {
    view.finalize();
  }
}

/** The chart as an SVG document (text as <text> elements, every data string escaped by Vega). */
export async function renderSvg(chart: Chart): Promise<string> {
  return (await renderChart(chart)).svg;
}

/** An SVG as a PNG, `scale` pixels per SVG unit (default 2, for sharp text), drawn with the shipped font. */
export async function renderPng(svg: string, scale = 2): Promise<Uint8Array> {
  if (!(scale > 0)) throw new RangeError(`renderPng needs a positive scale, got ${scale}`);
  const image = await renderAsync(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: { loadSystemFonts: false, fontFiles: [...FONT_FILES], defaultFontFamily: CHART_FONT, sansSerifFamily: CHART_FONT },
    logLevel: 'off',
  });
  return new Uint8Array(image.asPng());
}
