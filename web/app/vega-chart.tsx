import { useEffect, useRef, useState } from 'preact/hooks';
import type { Result } from 'vega-embed';
import type { Chart } from '../../reports/chart-kit.js';
import { MIN_CHART_SCALE, offlineSpec } from '../../reports/html.js';
import { slugify } from '../../reports/page-model.js';
import { downloadUrl } from './download.js';

/**
 * One chart of the CLI's reports (reports/charts.ts specs), drawn by vega-embed in the page, with
 * its PNG and SVG downloads. vega-embed's own menu is off: it links to the online Vega editor, and
 * the workbench makes no request beyond its own origin.
 */
export function VegaChart({ chart }: { chart: Chart }) {
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<Result | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    const element = box.current;
    if (element === null) return undefined;
    let result: Result | undefined;
    let cancelled = false;
    // vega is most of the page's code: loaded with the first chart, so the first numbers show without it.
    import('vega-embed')
      .then(({ default: embed }) =>
        embed(element, offlineSpec(chart.spec) as never, { actions: false, mode: 'vega-lite', renderer: 'svg' }),
      )
      .then(
        (made) => {
          if (cancelled) made.finalize();
          else {
            result = made;
            // A wide chart shrinks to its pane only so far that its text stays readable; past that it scrolls sideways in its figure.
            const width = Number(element.querySelector('svg')?.getAttribute('width'));
            if (width > 0) element.style.setProperty('--chart-min-width', `${Math.round(width * MIN_CHART_SCALE)}px`);
            setView(made);
            setProblem(undefined);
          }
        },
        (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
      );
    return () => {
      cancelled = true;
      result?.finalize();
    };
  }, [chart]);
  const save = async (format: 'png' | 'svg'): Promise<void> => {
    if (view === undefined) return;
    const url = await view.view.toImageURL(format, format === 'png' ? 2 : 1);
    downloadUrl(`${slugify(chart.title)}.${format}`, url);
  };
  return (
    <figure class="chart">
      <div class="chart-box" ref={box} role="img" aria-label={chart.title} />
      {problem === undefined ? null : <p class="problem">The chart could not be drawn: {problem}</p>}
      <figcaption class="chart-actions">
        {/* Named by the chart: a view with two charts has two of each button. */}
        <button type="button" aria-label={`${chart.title}: PNG`} disabled={view === undefined} onClick={() => void save('png')}>
          PNG
        </button>
        <button type="button" aria-label={`${chart.title}: SVG`} disabled={view === undefined} onClick={() => void save('svg')}>
          SVG
        </button>
        <span class="muted">download “{chart.title}”</span>
      </figcaption>
    </figure>
  );
}
