import type { TopLevelSpec } from 'vega-lite';
import type { ReportChart } from './types.js';

/**
 * The few chart shapes a report uses, as Vega-Lite specs with inline data. Sizes and fonts are
 * fixed so a spec renders to the same SVG everywhere; no `$schema` URL, so a report holds no
 * network address.
 */
const WIDTH = 520;
const HEIGHT = 240;
const CONFIG = { font: 'sans-serif', view: { stroke: '#ddd' }, axis: { labelFontSize: 10, titleFontSize: 11 }, legend: { labelLimit: 220 } };

export type Row = Record<string, string | number | null>;

function base(title: string, values: Row[]) {
  return { title, width: WIDTH, height: HEIGHT, config: CONFIG, data: { values } };
}

/** A CDF: one step line per `series`, value on x, cumulative probability on y. */
export function cdfChart(id: string, title: string, valueTitle: string, values: Row[]): ReportChart {
  const spec: TopLevelSpec = {
    ...base(title, values),
    mark: { type: 'line', interpolate: 'step-after', strokeWidth: 1.5 },
    encoding: {
      x: { field: 'value', type: 'quantitative', title: valueTitle },
      y: { field: 'p', type: 'quantitative', title: 'cumulative share', scale: { domain: [0, 1] } },
      color: { field: 'series', type: 'nominal', title: null, sort: null },
      order: { field: 'p', type: 'quantitative' },
    },
  };
  return { id, title, spec };
}

/**
 * A time series: x = simulated seconds, one line per `series`; with several runs, the run is
 * the dash pattern so one instance keeps one colour. Gaps (null) break the line.
 */
export function timeChart(id: string, title: string, yTitle: string, values: Row[], dashByRun: boolean, yDomain?: [number, number]): ReportChart {
  const spec: TopLevelSpec = {
    ...base(title, values),
    mark: { type: 'line', strokeWidth: 1.2, interpolate: 'step-after' },
    encoding: {
      x: { field: 't_s', type: 'quantitative', title: 'simulated time (s)' },
      y: { field: 'value', type: 'quantitative', title: yTitle, ...(yDomain ? { scale: { domain: yDomain } } : {}) },
      color: { field: 'series', type: 'nominal', title: null, sort: null },
      ...(dashByRun ? { strokeDash: { field: 'run', type: 'nominal', title: null, sort: null } } : {}),
    },
  };
  return { id, title, spec };
}

/**
 * Grouped bars: one group per `group` (x), one bar per `bar` inside it (colour), height `value`.
 * Rows with a `panel` field are split into side-by-side panels with their own y scale, for
 * figures of different magnitudes (TTFT beside E2E).
 */
export function groupedBarChart(id: string, title: string, groupTitle: string, yTitle: string, values: Row[]): ReportChart {
  const panels = new Set(values.map((v) => v.panel).filter((p) => p !== undefined && p !== null)).size;
  const frame =
    panels > 1
      ? { ...base(title, values), width: Math.max(120, Math.floor(WIDTH / panels) - 30), resolve: { scale: { x: 'independent' as const, xOffset: 'independent' as const, y: 'independent' as const } } }
      : base(title, values);
  const spec: TopLevelSpec = {
    ...frame,
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'group', type: 'nominal', title: groupTitle, sort: null, axis: { labelAngle: -30 } },
      xOffset: { field: 'bar', type: 'nominal', sort: null },
      y: { field: 'value', type: 'quantitative', title: yTitle },
      color: { field: 'bar', type: 'nominal', title: null, sort: null },
      ...(panels > 1 ? { column: { field: 'panel', type: 'nominal' as const, title: null, sort: null } } : {}),
      tooltip: [
        { field: 'group', type: 'nominal' },
        { field: 'bar', type: 'nominal' },
        { field: 'value', type: 'quantitative' },
      ],
    },
  };
  return { id, title, spec };
}
