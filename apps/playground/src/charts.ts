import type { SimulationResult } from '@blis/cluster';
import { type ReportSection, renderChartSvg, reportSections, scopeSvgIds } from '@blis/report';

/**
 * Draws the HTML report's sections for `runs` into `target` (the same charts the HTML report
 * has): a heading per section, its charts as SVG, its table unless the page shows that section's
 * figures itself (`ownTables`). Resolves once every chart is drawn.
 */
export async function drawReport(target: HTMLElement, runs: { name: string; result: SimulationResult }[], ownTables: readonly string[] = []): Promise<void> {
  const sections = reportSections(runs);
  const nodes = await Promise.all(sections.map((s) => sectionNode(s, target.id, !ownTables.includes(s.id))));
  target.replaceChildren(...nodes);
}

async function sectionNode(s: ReportSection, scope: string, withTable: boolean): Promise<HTMLElement> {
  const el = document.createElement('section');
  el.className = 'report-section';
  el.id = `${scope}-${s.id}`;
  const h = document.createElement('h3');
  h.textContent = s.title;
  el.append(h);
  if (s.note !== undefined) {
    const p = document.createElement('p');
    p.className = 'note';
    p.textContent = s.note;
    el.append(p);
  }
  // Vega numbers its clip paths from a global counter: ids are scoped so charts sharing the page cannot clash.
  const svgs = await Promise.all(s.charts.map(async (c) => scopeSvgIds(await renderChartSvg(c.spec), `${scope}-${s.id}-${c.id}`)));
  const row = document.createElement('div');
  row.className = 'charts';
  s.charts.forEach((c, i) => {
    const fig = document.createElement('figure');
    fig.className = 'chart';
    fig.id = `${scope}-${s.id}-${c.id}`;
    fig.setAttribute('aria-label', c.title);
    // The SVG comes from our own renderer over our own data, not from user-supplied markup.
    fig.innerHTML = svgs[i];
    row.append(fig);
  });
  el.append(row);
  if (s.table !== undefined && withTable) el.append(tableNode(s.table.columns, s.table.rows));
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
