import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  createPolicyRegistry,
  type PolicyBundleResult,
  parsePolicyBundle,
  resolvePolicySpecs,
} from '../src/index.js';

// The BLIS example files, copied unchanged into the repo (see examples/workloads/PROVENANCE.md).
const WORKLOADS = new URL('../../../examples/workloads', import.meta.url).pathname;

function issuesOf(result: PolicyBundleResult): { path: string; message: string }[] {
  if (result.success) throw new Error('expected the bundle to be rejected');
  return result.issues.map((i) => ({ path: i.pathText, message: i.message }));
}

function bundleOf(result: PolicyBundleResult) {
  if (!result.success)
    throw new Error(result.issues.map((i) => `${i.pathText}: ${i.message}`).join('\n'));
  return result;
}

describe('BLIS policy files', () => {
  it('accepts policy-config.yaml unchanged', () => {
    const { bundle, warnings } = bundleOf(
      parsePolicyBundle(parse(readFileSync(`${WORKLOADS}/policy-config.yaml`, 'utf8'))),
    );
    expect(bundle).toEqual({
      admission: { policy: 'always-admit' },
      routing: { policy: 'round-robin' },
      priority: { policy: 'constant' },
      scheduler: 'fcfs',
    });
    expect(warnings).toEqual([]);
  });

  it('accepts weighted-routing.yaml and resolves its scorers', () => {
    const { bundle } = bundleOf(
      parsePolicyBundle(parse(readFileSync(`${WORKLOADS}/weighted-routing.yaml`, 'utf8'))),
    );
    const specs = resolvePolicySpecs(bundle);
    expect(specs.routing).toEqual({
      name: 'weighted',
      params: {
        scorers: [
          { name: 'precise-prefix-cache', weight: 2 },
          { name: 'queue-depth', weight: 1 },
          { name: 'kv-utilization', weight: 1 },
        ],
      },
    });
    expect(specs.admission).toEqual({ name: 'always-admit', params: {} });
    expect(specs.scheduler.name).toBe('fcfs');
    expect(specs.preemption).toBe('fcfs');
  });

  it('treats an empty document as "nothing set"', () => {
    expect(bundleOf(parsePolicyBundle(null)).bundle).toEqual({});
    expect(bundleOf(parsePolicyBundle({ admission: null })).bundle).toEqual({});
  });
});

describe('structural errors carry paths', () => {
  it('rejects unknown keys (typos), like BLIS', () => {
    expect(issuesOf(parsePolicyBundle({ admision: { policy: 'always-admit' } }))).toEqual([
      { path: 'admision', message: 'unknown field (not a parameter of this policy)' },
    ]);
    expect(
      issuesOf(parsePolicyBundle({ routing: { policy: 'weighted', scorer: [] } }))[0].path,
    ).toBe('routing.scorer');
  });

  it('rejects unknown policy, scheduler and scorer names, listing the valid ones', () => {
    const issues = issuesOf(
      parsePolicyBundle({
        admission: { policy: 'bouncer' },
        routing: { policy: 'weighted', scorers: [{ name: 'warp', weight: 1 }] },
        scheduler: 'lifo',
      }),
    );
    expect(issues.map((i) => i.path)).toEqual([
      'admission.policy',
      'scheduler',
      'routing.scorers[0].name',
    ]);
    expect(issues[0].message).toMatch(
      /^unknown admission policy "bouncer"; valid: always-admit, gaie-legacy, /,
    );
    expect(issues[1].message).toBe(
      'unknown scheduler "lifo"; valid: fcfs, priority-fcfs, reverse-priority, sjf',
    );
    expect(issues[2].message).toMatch(/^unknown scorer "warp"; valid: active-requests, /);
  });

  it('checks numbers with what was expected and what was found', () => {
    const issues = issuesOf(
      parsePolicyBundle({
        admission: { policy: 'token-bucket', token_bucket_capacity: -5 },
        routing: { policy: 'weighted', scorers: [{ name: 'queue-depth', weight: 'heavy' }] },
        tenant_budgets: { a: 1.5 },
      }),
    );
    expect(issues).toEqual([
      {
        path: 'admission.token_bucket_capacity',
        message: 'expected a finite number > 0; found -5',
      },
      { path: 'routing.scorers[0].weight', message: 'expected a finite number > 0; found "heavy"' },
      {
        path: 'tenant_budgets.a',
        message: 'expected a share of cluster capacity in [0, 1]; found 1.5',
      },
    ]);
  });

  it('rejects duplicate scorers', () => {
    const issues = issuesOf(
      parsePolicyBundle({
        routing: {
          policy: 'weighted',
          scorers: [
            { name: 'queue-depth', weight: 1 },
            { name: 'queue-depth', weight: 2 },
          ],
        },
      }),
    );
    expect(issues).toEqual([
      {
        path: 'routing.scorers[1].name',
        message: 'duplicate scorer "queue-depth"; each scorer may appear at most once',
      },
    ]);
  });

  it('validates node pools and the autoscaler like BLIS', () => {
    const issues = issuesOf(
      parsePolicyBundle({
        node_pools: [
          {
            name: 'a',
            gpu_type: 'H100',
            gpus_per_node: 8,
            gpu_memory_gib: 80,
            initial_nodes: 3,
            max_nodes: 2,
          },
        ],
        autoscaler: { interval_us: 1e6, analyzer: { scale_down_boundary: 0.9 } },
      }),
    );
    expect(issues).toEqual([
      { path: 'node_pools[0].max_nodes', message: 'expected max_nodes >= initial_nodes (3), found 2' },
      {
        path: 'autoscaler.analyzer.scale_down_boundary',
        message: 'expected scale_down_boundary < the effective scale_up_threshold (0.8), found 0.9',
      },
    ]);
  });
});

describe('policy parameters', () => {
  it('validates params of the named policy under <section>.params', () => {
    expect(
      issuesOf(
        parsePolicyBundle({ admission: { policy: 'tenant-quota', params: { maxInFlight: 0 } } }),
      ),
    ).toEqual([
      {
        path: 'admission.params.maxInFlight',
        message: 'expected an integer > 0 (cluster in-flight capacity); found 0',
      },
    ]);
    expect(
      issuesOf(
        parsePolicyBundle({ routing: { policy: 'prefix-overlap', params: { cacheWeigth: 0.5 } } }),
      ),
    ).toEqual([
      {
        path: 'routing.params.cacheWeigth',
        message: 'unknown field (not a parameter of this policy)',
      },
    ]);
  });

  it('anchors scorer params under routing.scorers', () => {
    const result = parsePolicyBundle({
      routing: {
        policy: 'weighted',
        scorers: [{ name: 'prefix-affinity', weight: 1, params: { lruCapacity: -1 } }],
      },
    });
    expect(issuesOf(result)).toEqual([
      {
        path: 'routing.scorers[0].params.lruCapacity',
        message: 'expected an integer > 0; found -1',
      },
    ]);
  });

  it('maps BLIS fields to params and refuses a value set twice', () => {
    const ok = bundleOf(
      parsePolicyBundle({
        admission: {
          policy: 'tier-shed',
          tier_shed_threshold: 4,
          tier_shed_min_priority: 0,
          slo_priorities: { batch: 2 },
        },
        priority: { policy: 'slo-class' },
      }),
    );
    const specs = resolvePolicySpecs(ok.bundle);
    expect(specs.admission).toEqual({
      name: 'tier-shed',
      params: { overloadThreshold: 4, minAdmitPriority: 0, priorities: { batch: 2 } },
    });
    expect(specs.priority).toEqual({ name: 'slo-class', params: { priorities: { batch: 2 } } });

    expect(
      issuesOf(
        parsePolicyBundle({
          admission: { policy: 'token-bucket', token_bucket_capacity: 5, params: { capacity: 6 } },
        }),
      ),
    ).toEqual([
      {
        path: 'admission.params.capacity',
        message: '"capacity" is also set by admission.token_bucket_capacity; set it once',
      },
    ]);
  });

  it('warns about settings the chosen policies ignore', () => {
    const { warnings } = bundleOf(
      parsePolicyBundle({
        admission: { policy: 'always-admit', token_bucket_capacity: 5000 },
        routing: { policy: 'round-robin', scorers: [{ name: 'queue-depth', weight: 1 }] },
      }),
    );
    expect(warnings).toEqual([
      'admission.token_bucket_capacity ignored: admission policy "always-admit" does not use it',
      'routing.scorers ignored: routing policy "round-robin" is not weighted',
    ]);
  });

  it('checks names against the registry it is given', () => {
    const mine = createPolicyRegistry();
    mine.registerAdmissionPolicy('bouncer', () => ({
      name: 'bouncer',
      admit: () => ({ admit: true, reason: '' }),
    }));
    expect(parsePolicyBundle({ admission: { policy: 'bouncer' } }, mine).success).toBe(true);
    expect(parsePolicyBundle({ admission: { policy: 'bouncer' } }).success).toBe(false);
  });
});

describe('resolvePolicySpecs', () => {
  it('lets command-line overrides win and fills BLIS defaults', () => {
    const { bundle } = bundleOf(
      parsePolicyBundle({
        admission: { token_bucket_capacity: 500 },
        routing: { policy: 'least-loaded' },
        preemption: { policy: 'priority' },
      }),
    );
    const specs = resolvePolicySpecs(bundle, {
      admission: { name: 'token-bucket', params: { refillRate: 50 } },
      scheduler: { name: 'sjf' },
    });
    expect(specs.admission).toEqual({
      name: 'token-bucket',
      params: { capacity: 500, refillRate: 50 },
    });
    expect(specs.routing).toEqual({ name: 'least-loaded', params: {} });
    expect(specs.priority).toEqual({ name: 'constant', params: {} });
    expect(specs.scheduler).toEqual({ name: 'sjf', params: {} });
    expect(specs.preemption).toBe('priority');
  });

  it('drops section params that belong to a policy the override replaced', () => {
    const { bundle } = bundleOf(
      parsePolicyBundle({ routing: { policy: 'prefix-aware', params: { cacheWeight: 0.5 } } }),
    );
    const specs = resolvePolicySpecs(bundle, { routing: { name: 'round-robin' } });
    expect(specs.routing).toEqual({ name: 'round-robin', params: {} });
    expect(specs.warnings).toEqual([
      'routing.params ignored: they belong to "prefix-aware", but "round-robin" runs',
    ]);
  });

  it('names the BLIS settings it accepts but does not simulate (autoscaling is simulated)', () => {
    const { bundle } = bundleOf(
      parsePolicyBundle({
        admission: { policy: 'always-admit', slo_targets: { critical: 100_000 } },
        tenant_budgets: { a: 0.5 },
        autoscaler: { interval_us: 0 },
        instance_lifecycle: { warm_start_initial_instances: true },
      }),
    );
    expect(resolvePolicySpecs(bundle).warnings).toEqual([
      'tenant_budgets ignored: not simulated by this version',
      'admission.slo_targets ignored: not simulated by this version',
    ]);
  });
});
