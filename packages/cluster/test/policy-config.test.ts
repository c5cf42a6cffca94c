import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PolicyBundle, parsePolicyBundle, resolvePolicySpecs } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type SimulationConfigInput, simulate } from '../src/index.js';

// `--policy-config FILE` (BLIS's policy YAML) gives the same result as the equivalent flags, and
// flags override the file. Checked twice: in the library (the YAML resolved with
// resolvePolicySpecs and run through simulate(), against the same policies named directly) and
// through the `blis` process (stdout byte for byte), for BLIS's two example files and for a
// file that sets every stage.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const EXAMPLES = join(ROOT, 'examples', 'workloads');
const POLICY_CONFIG = join(EXAMPLES, 'policy-config.yaml');
const WEIGHTED = join(EXAMPLES, 'weighted-routing.yaml');
const DEMO = join(EXAMPLES, 'prefix-affinity-demo.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'blis-policy-config-'));

/** Every stage set, and a token bucket that rejects part of the demo's ~180K prompt tokens/s. */
const FULL = join(tmp, 'full.yaml');
writeFileSync(
  FULL,
  `admission:
  policy: token-bucket
  token_bucket_capacity: 3000
  token_bucket_refill_rate: 100000
routing:
  policy: weighted
  scorers:
    - name: prefix-affinity
      weight: 4
    - name: load-balance
      weight: 1
priority:
  policy: slo-class
scheduler: priority-fcfs
preemption:
  policy: priority
`,
);
const FULL_FLAGS = [
  '--admission-policy', 'token-bucket', '--token-bucket-capacity', '3000', '--token-bucket-refill-rate', '100000',
  '--routing-policy', 'weighted', '--routing-scorers', 'prefix-affinity:4,load-balance:1',
  '--priority-policy', 'slo-class', '--scheduler', 'priority-fcfs', '--preemption-policy', 'priority',
];

function bundleOf(path: string): PolicyBundle {
  const r = parsePolicyBundle(parse(readFileSync(path, 'utf8')));
  if (!r.success) throw new Error(r.issues.map((i) => `${i.pathText}: ${i.message}`).join('\n'));
  return r.bundle;
}

/** What `blis` builds from resolved specs (routing scorers travel in their own field). */
function configFromBundle(bundle: PolicyBundle): SimulationConfigInput {
  const s = resolvePolicySpecs(bundle);
  const { scorers, ...routingParams } = s.routing.params as { scorers?: { name: string; weight: number }[] };
  return {
    admission: { policy: s.admission.name, params: { ...s.admission.params } },
    priority: { policy: s.priority.name, params: { ...s.priority.params } },
    routing: { policy: s.routing.name, scorers, params: routingParams },
    scheduler: { policy: s.scheduler.name },
    preemptionPolicy: s.preemption,
  };
}

const demo = (policies: SimulationConfigInput) => JSON.stringify(simulate({ numInstances: 4, workload: { kind: 'spec', path: DEMO }, ...policies }));

describe('the policy YAML through the library', () => {
  it('policy-config.yaml is exactly the defaults', () => {
    expect(demo(configFromBundle(bundleOf(POLICY_CONFIG)))).toBe(demo({}));
  });

  it('weighted-routing.yaml is weighted precise-prefix-cache:2, queue-depth:1, kv-utilization:1', () => {
    const named = demo({
      routing: {
        policy: 'weighted',
        scorers: [
          { name: 'precise-prefix-cache', weight: 2 },
          { name: 'queue-depth', weight: 1 },
          { name: 'kv-utilization', weight: 1 },
        ],
      },
    });
    expect(demo(configFromBundle(bundleOf(WEIGHTED)))).toBe(named);
    expect(named).not.toBe(demo({}));
  });

  it('a file setting every stage, BLIS field names mapped to params', () => {
    const named = demo({
      admission: { policy: 'token-bucket', params: { capacity: 3000, refillRate: 100_000 } },
      routing: { policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 4 }, { name: 'load-balance', weight: 1 }] },
      priority: { policy: 'slo-class' },
      scheduler: { policy: 'priority-fcfs' },
      preemptionPolicy: 'priority',
    });
    expect(demo(configFromBundle(bundleOf(FULL)))).toBe(named);
    expect(JSON.parse(named).rejected_requests).toBeGreaterThan(0);
  });
});

function blis(...args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, 'run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-instances', '4', '--workload-spec', DEMO, '--quiet', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('blis run --policy-config', () => {
  const defaults = blis();

  it('policy-config.yaml prints what no flags (and the explicit default flags) print', () => {
    expect(blis('--policy-config', POLICY_CONFIG)).toBe(defaults);
    expect(blis('--admission-policy', 'always-admit', '--routing-policy', 'round-robin', '--priority-policy', 'constant', '--scheduler', 'fcfs')).toBe(defaults);
  });

  it('weighted-routing.yaml prints what the equivalent flags print; flags override it', () => {
    const file = blis('--policy-config', WEIGHTED);
    expect(file).toBe(blis('--routing-policy', 'weighted', '--routing-scorers', 'precise-prefix-cache:2,queue-depth:1,kv-utilization:1'));
    expect(file).not.toBe(defaults);
    // --routing-policy replaces the file's policy (and its scorers with it).
    expect(blis('--policy-config', WEIGHTED, '--routing-policy', 'least-loaded')).toBe(blis('--routing-policy', 'least-loaded'));
  });

  it('a file setting every stage equals its flags, and each flag overrides its field', () => {
    const file = blis('--policy-config', FULL);
    expect(file).toBe(blis(...FULL_FLAGS));
    expect(JSON.parse(file).rejected_requests).toBeGreaterThan(0);
    const override: Record<string, string> = { '--token-bucket-capacity': '50000', '--routing-scorers': 'queue-depth:1', '--scheduler': 'fcfs', '--preemption-policy': 'fcfs' };
    const overridden = blis('--policy-config', FULL, ...Object.entries(override).flat());
    // The same flags with those four values replaced.
    expect(overridden).toBe(blis(...FULL_FLAGS.map((a, i) => override[FULL_FLAGS[i - 1]] ?? a)));
    expect(overridden).not.toBe(file);
  });
});
