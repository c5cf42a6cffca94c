import { knownHardware, knownModels, workloadPresetNames } from '@blis/latency';
import { listPolicies } from '@blis/policies';

/** The model the page starts with: one the README's examples use. */
const DEFAULT_MODEL = 'qwen/qwen3-14b';

/** Fills the page's selects from the catalogue `blis models` and `blis policies` print. */
export function fillCatalogue(doc: Document): void {
  const policies = listPolicies();
  fill(doc, 'model', knownModels(), DEFAULT_MODEL);
  fill(doc, 'hardware', knownHardware());
  fill(doc, 'preset', workloadPresetNames());
  fill(doc, 'routing', policies.routing, 'round-robin');
  fill(doc, 'admission', policies.admission, 'always-admit');
  fill(doc, 'priority', policies.priority, 'constant');
  fill(doc, 'scheduler', policies.scheduler, 'fcfs');
  const scorers = doc.getElementById('scorers');
  if (scorers !== null) scorers.title = `name:weight pairs, for the weighted policy; scorers: ${policies.scorer.join(', ')}`;
}

/** Appends one option per name (after any placeholder option in the page) and selects `selected`. */
function fill(doc: Document, id: string, names: readonly string[], selected?: string): void {
  const select = doc.getElementById(id) as HTMLSelectElement | null;
  if (select === null) return;
  for (const name of names) select.add(new Option(name, name, false, name === selected));
}
