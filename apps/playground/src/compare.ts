import type { SimulationResult } from '@blis/cluster';
import { drawReport } from './charts.js';
import { HEADLINE, valueCell } from './headline.js';

/** The two runs kept for comparison ("keep as run A / run B"). */
export class KeptRuns {
  private runs: { A?: SimulationResult; B?: SimulationResult } = {};

  keep(slot: 'A' | 'B', result: SimulationResult): void {
    this.runs[slot] = result;
  }

  /** Both runs, once both slots are filled. */
  both(): { A: SimulationResult; B: SimulationResult } | undefined {
    const { A, B } = this.runs;
    return A !== undefined && B !== undefined ? { A, B } : undefined;
  }

  /** Which slots hold a run, for the section's heading. */
  filled(): ('A' | 'B')[] {
    return (['A', 'B'] as const).filter((s) => this.runs[s] !== undefined);
  }
}

/**
 * Fills the comparison: the headline numbers of A and B side by side with B's change relative to
 * A (cells `compare-a-<id>`, `compare-b-<id>`), then the report's charts over both runs.
 */
export async function drawComparison(table: HTMLElement, charts: HTMLElement, A: SimulationResult, B: SimulationResult): Promise<void> {
  const t = document.createElement('table');
  t.className = 'headline';
  const head = t.createTHead().insertRow();
  for (const c of ['', 'Run A', 'Run B', 'B vs A']) {
    const th = document.createElement('th');
    th.textContent = c;
    head.append(th);
  }
  const body = t.createTBody();
  for (const h of HEADLINE) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.textContent = h.label;
    row.append(th, valueCell(A[h.field], h.digits, `compare-a-${h.id}`), valueCell(B[h.field], h.digits, `compare-b-${h.id}`));
    const a = A[h.field];
    const b = B[h.field];
    const delta = row.insertCell();
    if (typeof a === 'number' && typeof b === 'number' && a !== 0) delta.textContent = `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)}%`;
    else delta.textContent = '—';
  }
  table.replaceChildren(t);
  // The report's comparison table holds the same figures as the one above, without the change.
  await drawReport(
    charts,
    [
      { name: 'A', result: A },
      { name: 'B', result: B },
    ],
    ['comparison'],
  );
}
