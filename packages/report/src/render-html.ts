import type { SimulationResult } from '@blis/cluster';
import { escapeHtml, formatCell, scriptJson } from './html-text.js';
import { renderChartSvg, scopeSvgIds } from './render-svg.js';
import { REPORT_CSS } from './report-style.js';
import { reportSections } from './report-sections.js';
import { HEADLINE_METRICS, headline } from './sections/comparison.js';
import type { ReportCalibration } from './sections/calibration.js';
import type { ReportRun, ReportSection, ReportTable } from './types.js';

export interface ReportHtmlOptions {
  /** The page title and heading; default "BLIS simulation report". */
  title?: string;
  /** `blis calibrate` reports to show in a calibration section (first). */
  calibrations?: readonly ReportCalibration[];
  /** Called after each chart is drawn, with the charts drawn so far and the report's total. */
  onProgress?: (chartsDone: number, chartsTotal: number) => void;
}

/** What a report embeds as `<script type="application/json" id="blis-report-data">`. */
export interface ReportData {
  format: 'blis-report/1';
  title: string;
  runs: ReportRunData[];
  sections: ReportSectionData[];
}

/** A run's figures as its result file gives them, for checking the charts against. */
export interface ReportRunData {
  name: string;
  metrics: Record<string, number | null>;
  target_distribution: Record<string, number>;
  per_slo_class: SimulationResult['per_slo_class'];
  per_tenant: SimulationResult['per_tenant'];
}

/** A section as drawn: its table, and each chart's data rows. */
export interface ReportSectionData {
  id: string;
  title: string;
  note?: string;
  table?: ReportTable;
  charts: { id: string; title: string; values: unknown[] }[];
}

const DEFAULT_TITLE = 'BLIS simulation report';

function chartValues(spec: unknown): unknown[] {
  const data = (spec as { data?: { values?: unknown } }).data;
  return Array.isArray(data?.values) ? data.values : [];
}

/** The data a report embeds (also what its charts and tables were drawn from). */
export function reportData(runs: readonly ReportRun[], sections: readonly ReportSection[], title: string): ReportData {
  return {
    format: 'blis-report/1',
    title,
    runs: runs.map((r) => ({
      name: r.name,
      metrics: Object.fromEntries(HEADLINE_METRICS.map((m) => [m, headline(r.result, m)])),
      target_distribution: r.result.target_distribution ?? {},
      per_slo_class: r.result.per_slo_class ?? {},
      per_tenant: r.result.per_tenant ?? {},
    })),
    sections: sections.map((s) => ({
      id: s.id,
      title: s.title,
      ...(s.note !== undefined ? { note: s.note } : {}),
      ...(s.table ? { table: s.table } : {}),
      charts: s.charts.map((c) => ({ id: c.id, title: c.title, values: chartValues(c.spec) })),
    })),
  };
}

function tableHtml(t: ReportTable): string {
  const head = `<tr>${t.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`;
  const body = t.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(formatCell(c))}</td>`).join('')}</tr>`).join('\n');
  return `<div class="table-wrap"><table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

async function sectionHtml(s: ReportSection, chartDone: () => void): Promise<string> {
  const figures: string[] = [];
  for (const c of s.charts) {
    const svg = scopeSvgIds(await renderChartSvg(c.spec), `${s.id}-${c.id}`);
    figures.push(`<figure id="${escapeHtml(`${s.id}-${c.id}`)}" aria-label="${escapeHtml(c.title)}">${svg}</figure>`);
    chartDone();
  }
  return [
    `<section id="${escapeHtml(s.id)}">`,
    `<h2>${escapeHtml(s.title)}</h2>`,
    ...(s.note ? [`<p class="note">${escapeHtml(s.note)}</p>`] : []),
    ...(figures.length > 0 ? [`<div class="charts">\n${figures.join('\n')}\n</div>`] : []),
    ...(s.table ? [tableHtml(s.table)] : []),
    '</section>',
  ].join('\n');
}

function runLine(r: ReportRun): string {
  const res = r.result;
  const n = Array.isArray(res.instances) ? res.instances.length : 0;
  return `<li><b>${escapeHtml(r.name)}</b>: ${res.completed_requests} completed of ${res.injected_requests} injected, ${n} instance${n === 1 ? '' : 's'}, ${formatCell(res.vllm_estimated_duration_s)} s simulated</li>`;
}

function calibrationLine(c: ReportCalibration): string {
  const t = c.report.trace_info;
  return `<li><b>${escapeHtml(c.name)}</b>: calibration, ${t.matched_pairs} matched pairs of ${t.num_requests} recorded requests</li>`;
}

/**
 * One self-contained HTML file: inline CSS, one inline SVG per chart, one `<section>` per
 * report section, and the data drawn from as JSON. Nothing is fetched and nothing depends on
 * the clock, so the same runs give byte-identical HTML.
 */
export async function renderReportHtml(runs: readonly ReportRun[], opts: ReportHtmlOptions = {}): Promise<string> {
  const title = opts.title ?? DEFAULT_TITLE;
  const calibrations = opts.calibrations ?? [];
  const sections = reportSections(runs, calibrations);
  const body: string[] = [];
  const total = sections.reduce((n, s) => n + s.charts.length, 0);
  let done = 0;
  const chartDone = () => opts.onProgress?.(++done, total);
  for (const s of sections) body.push(await sectionHtml(s, chartDone));
  const nav = sections.map((s) => `<a href="#${escapeHtml(s.id)}">${escapeHtml(s.title)}</a>`).join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<ul class="runs">\n${[...runs.map(runLine), ...calibrations.map(calibrationLine)].join('\n')}\n</ul>`,
    `<nav>\n${nav}\n</nav>`,
    '</header>',
    '<main>',
    ...body,
    '</main>',
    `<script type="application/json" id="blis-report-data">${scriptJson(reportData(runs, sections, title))}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
