import type { SimulationResult } from '@blis/cluster';
import { buildRun } from './build-run.js';
import { fillCatalogue } from './catalogue.js';
import { drawReport } from './charts.js';
import { KeptRuns, drawComparison } from './compare.js';
import { readForm } from './form-values.js';
import { headlineTable } from './headline.js';
import { PageInputError, showIssues } from './page-issue.js';
import { runInWorker } from './run-client.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const form = $<HTMLFormElement>('run-form');
const errors = $<HTMLUListElement>('errors');
const progress = $<HTMLProgressElement>('progress');
const status = $<HTMLSpanElement>('status');
const runButton = $<HTMLButtonElement>('run');
const kept = new KeptRuns();
let last: SimulationResult | undefined;

fillCatalogue(document);

// Only the chosen workload source's inputs are shown.
form.addEventListener('change', (ev) => {
  const t = ev.target as HTMLInputElement;
  if (t.name !== 'workloadKind') return;
  for (const el of form.querySelectorAll<HTMLElement>('[data-workload]')) el.hidden = el.dataset.workload !== t.value;
});

// Scorers weigh in only under the weighted router; elsewhere the field would change nothing.
const routing = $<HTMLSelectElement>('routing');
const scorers = $<HTMLInputElement>('scorers');
const syncScorers = () => {
  scorers.disabled = routing.value !== 'weighted';
};
routing.addEventListener('change', syncScorers);
syncScorers();

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  void run();
});

async function run(): Promise<void> {
  showIssues(errors, []);
  runButton.disabled = true;
  progress.removeAttribute('value');
  status.textContent = 'checking inputs…';
  document.body.dataset.state = 'running';
  try {
    const request = await buildRun(readForm(form));
    status.textContent = 'simulating…';
    const { result, elapsedMs } = await runInWorker(request, (done, total) => {
      if (total === undefined) return;
      progress.max = total;
      progress.value = Math.min(done, total);
      status.textContent = `simulating… ${done} / ${total} requests`;
    });
    last = result;
    progress.max = 1;
    progress.value = 1;
    status.replaceChildren(`${result.completed_requests} of ${result.injected_requests} requests completed; ran in `, elapsedNode(elapsedMs));
    await showResult(result);
    document.body.dataset.state = 'done';
  } catch (e) {
    progress.value = 0;
    status.textContent = '';
    showIssues(errors, e instanceof PageInputError ? e.issues : [{ where: 'page', expected: 'no internal error', found: String(e) }]);
    document.body.dataset.state = 'error';
  } finally {
    runButton.disabled = false;
  }
}

/** The run's wall-clock time, with the exact milliseconds in `data-ms` for the e2e test. */
function elapsedNode(ms: number): HTMLElement {
  const el = document.createElement('span');
  el.id = 'run-time';
  el.dataset.ms = String(ms);
  el.textContent = `${(ms / 1000).toFixed(2)} s`;
  return el;
}

async function showResult(result: SimulationResult): Promise<void> {
  $('results').hidden = false;
  $('headline').replaceChildren(headlineTable(result));
  await drawReport($('charts'), [{ name: 'run', result }]);
}

for (const slot of ['A', 'B'] as const) {
  $(`keep-${slot.toLowerCase()}`).addEventListener('click', () => {
    if (last === undefined) return;
    kept.keep(slot, last);
    void showComparison();
  });
}

async function showComparison(): Promise<void> {
  const section = $('compare');
  section.hidden = false;
  const both = kept.both();
  if (both === undefined) {
    $('compare-table').textContent = `Kept: run ${kept.filled().join(', ')}. Change the inputs, run again and keep the other.`;
    $('compare-charts').replaceChildren();
    return;
  }
  await drawComparison($('compare-table'), $('compare-charts'), both.A, both.B);
}
