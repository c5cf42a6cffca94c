import type { SimulationResult } from '@blis/cluster';
import { type ReportSection, renderChartSvg, reportSections } from '@blis/report';

/**
 * Draws the HTML report's sections for `runs` into `target` (the same charts `blis report`
 * writes): a heading per section, its charts as SVG, its table. Resolves once every chart is drawn.
 */
export async function drawReport(target: HTMLElement, runs: { name: string; result: SimulationResult }[]): Promise<void> {
  const sections = reportSections(runs);
  const nodes = await Promise.all(sections.map(sectionNode));
  target.replaceChildren(...nodes);
}

async function sectionNode(s: ReportSection): Promise<HTMLElement> {
  const el = document.createElement('section');
  el.className = 'report-section';
  el.id = `section-${s.id}`;
  const h = document.createElement('h3');
  h.textContent = s.title;
  el.append(h);
  if (s.note !== undefined) {
    const p = document.createElement('p');
    p.className = 'note';
    p.textContent = s.note;
    el.append(p);
  }
  const svgs = await Promise.all(s.charts.map((c) => renderChartSvg(c.spec)));
  s.charts.forEach((c, i) => {
    const fig = document.createElement('figure');
    fig.className = 'chart';
    fig.id = `chart-${c.id}`;
    // The SVG comes from our own renderer over our own data, not from user-supplied markup.
    fig.innerHTML = svgs[i];
    const cap = document.createElement('figcaption');
    cap.textContent = c.title;
    fig.append(cap);
    el.append(fig);
  });
  if (s.table !== undefined) el.append(tableNode(s.table.columns, s.table.rows));
  return el;
}

function tableNode(columns: readonly string[], rows: readonly (string | number | null)[][]): HTMLTableElement {
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const c of columns) {
    const th = document.createElement('th');
    th.textContent = c;
    head.append(th);
  }
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    for (const v of r) tr.insertCell().textContent = v === null ? '—' : typeof v === 'number' ? formatNumber(v) : v;
  }
  return table;
}

function formatNumber(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 3 });
}
