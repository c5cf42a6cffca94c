import { upgradeV1Spec } from '../spec-upgrade.js';
import { type GoYamlNode, goYamlDocument } from '../go-yaml/index.js';
import { clientNode } from './spec-node.js';

/** The top-level keys BLIS's compose keeps (from the first spec: version, category; summed: aggregate_rate). */
const KEPT = new Set(['version', 'category', 'clients', 'aggregate_rate']);

/** The merged spec, as BLIS's `blis compose` prints it, and what of the inputs it left out. */
export interface ComposedSpec {
  /** yaml.v3's text of the merged spec. */
  yaml: string;
  /** The merged spec as a plain object (snake_case keys, v2). */
  spec: { version: '2'; seed: 0; category: string; clients: Record<string, unknown>[]; aggregate_rate: number };
  /** Per input, in order, the top-level keys it had that the merged spec does not keep (`seed`, `num_requests`, ...). */
  dropped: string[][];
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * BLIS's `ComposeSpecs` (sim/workload/convert.go) over already-validated specs, as parsed from
 * their YAML (v1 ones upgraded as BLIS loads them): one v2 spec whose clients are every input's
 * clients in order, `aggregate_rate` the sum of theirs, and each client's `rate_fraction` scaled
 * by its spec's share of that sum, so that every client keeps its requests per second. When the
 * sum is 0 (concurrency-only specs) the clients are concatenated unchanged. Category is the
 * first spec's; seed is 0 and every other top-level key is left out, as BLIS leaves them out.
 */
export function composeSpecs(inputs: readonly unknown[]): ComposedSpec {
  if (inputs.length === 0) throw new Error('composeSpecs: at least one spec');
  const specs = inputs.map((raw) => {
    const up = upgradeV1Spec(raw).raw;
    return isRecord(up) ? up : {};
  });
  const rateOf = (s: Record<string, unknown>) => (typeof s.aggregate_rate === 'number' ? s.aggregate_rate : 0);
  // Summed left to right, as BLIS sums it: the same float.
  let total = 0;
  for (const s of specs) total += rateOf(s);
  const clients: Record<string, unknown>[] = [];
  for (const s of specs) {
    const weight = total === 0 ? 1 : rateOf(s) / total;
    for (const c of Array.isArray(s.clients) ? s.clients : []) {
      const client = isRecord(c) ? c : {};
      if (total === 0) clients.push(client);
      else clients.push({ ...client, rate_fraction: (typeof client.rate_fraction === 'number' ? client.rate_fraction : 0) * weight });
    }
  }
  const category = typeof specs[0].category === 'string' ? specs[0].category : '';
  const spec = { version: '2' as const, seed: 0 as const, category, clients, aggregate_rate: total };
  const root: GoYamlNode = {
    kind: 'map',
    entries: [
      ['version', { kind: 'str', value: '2' }],
      ['seed', { kind: 'int', value: 0 }],
      ['category', { kind: 'str', value: category }],
      ['clients', { kind: 'seq', items: clients.map(clientNode) }],
      ['aggregate_rate', { kind: 'float', value: total }],
    ],
  };
  const dropped = specs.map((s, i) => Object.keys(s).filter((k) => !KEPT.has(k) || (k === 'category' && i > 0 && s.category !== category)));
  return { yaml: goYamlDocument(root), spec, dropped };
}
