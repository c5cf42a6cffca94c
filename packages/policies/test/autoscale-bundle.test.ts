import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import {
  type AutoScaleFactory,
  createPolicyRegistry,
  type PolicyBundle,
  type PolicyBundleResult,
  parsePolicyBundle,
  parsePolicyParams,
} from '../src/index.js';
import { autoscaleConfigFromBundle, secondsToUs } from '../src/internal.js';

// The policy bundle's `node_pools`, `autoscaler` and `instance_lifecycle` sections: what they
// accept (BLIS's keys and ours), what they refuse (with the path of the offending key), and
// their conversion to the config's fields and units (seconds -> µs). Line numbers are the
// CLI's part (packages/cli/test/autoscale-cli-*.test.ts).

const EXAMPLES = new URL('../../../examples/workloads', import.meta.url).pathname;

// Stand-ins for the built-in autoscalers, so these cases do not depend on their implementation:
// `wva-saturation` takes the analyzer's keys, `threshold` one param of its own.
const hold: AutoScaleFactory = () => ({ name: 'hold', evaluate: () => ({ delta: 0, reason: 'hold' }) });
const wvaParams = z.strictObject({
  kv_cache_threshold: z.number().gt(0).max(1, { error: 'expected a number in (0, 1]' }).optional(),
  scale_up_threshold: z.number().optional(),
  scale_down_boundary: z.number().optional(),
  avg_input_tokens: z.number().optional(),
});
const thresholdParams = z.strictObject({ upper: z.number({ error: 'expected a number' }).optional() });
function registry() {
  const r = createPolicyRegistry();
  r.registerAutoscaler(
    'wva-saturation',
    (ctx) => {
      parsePolicyParams('autoscaler', 'wva-saturation', wvaParams, ctx.params);
      return hold(ctx);
    },
    { replace: true },
  );
  r.registerAutoscaler(
    'threshold',
    (ctx) => {
      parsePolicyParams('autoscaler', 'threshold', thresholdParams, ctx.params);
      return hold(ctx);
    },
    { replace: true },
  );
  return r;
}

function parsed(input: unknown): PolicyBundleResult {
  return parsePolicyBundle(input, registry());
}

function bundleOf(input: unknown): PolicyBundle {
  const r = parsed(input);
  if (!r.success) throw new Error(r.issues.map((i) => `${i.pathText}: ${i.message}`).join('\n'));
  return r.bundle;
}

function issuesOf(input: unknown): { path: string; message: string }[] {
  const r = parsed(input);
  if (r.success) throw new Error('expected the bundle to be rejected');
  return r.issues.map((i) => ({ path: i.pathText, message: i.message }));
}

const POOL = { name: 'h100', gpu_type: 'H100', gpus_per_node: 1, gpu_memory_gib: 80, max_nodes: 4 };

describe("BLIS's docs/configs/phase2-autoscaler.yaml", () => {
  const text = readFileSync(`${EXAMPLES}/phase2-autoscaler.yaml`, 'utf8');

  it('loads unchanged, without warnings', () => {
    const r = parsed(parse(text));
    if (!r.success) throw new Error(JSON.stringify(r.issues));
    expect(r.warnings).toEqual([]);
    // ... also against the default registry (whatever autoscalers it has).
    expect(parsePolicyBundle(parse(text)).success).toBe(true);
  });

  it('converts to the config fields, seconds as µs, the analyzer as wva-saturation params', () => {
    const { config, warnings } = autoscaleConfigFromBundle(bundleOf(parse(text)));
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      autoscaling: {
        intervalUs: 30_000_000,
        policy: 'wva-saturation',
        params: { kv_cache_threshold: 0.8, scale_up_threshold: 0.8, scale_down_boundary: 0.4, avg_input_tokens: 512 },
        scaleUpStabilizationWindowUs: 240_000_000,
        scaleDownStabilizationWindowUs: 240_000_000,
        scrapeDelay: { meanUs: 0, stddevUs: 0 },
      },
      nodePools: [
        {
          name: 'h100-tp1',
          gpuType: 'H100',
          gpusPerNode: 1,
          gpuMemoryGib: 80,
          initialNodes: 5,
          minNodes: 0,
          maxNodes: 5,
          costPerHour: 0,
          provisioningDelay: { meanUs: 0, stddevUs: 0 },
        },
      ],
      lifecycle: {
        // loading_delay: {mean: 240, stddev: 30} seconds
        loadingDelay: { meanUs: 240_000_000, stddevUs: 30_000_000 },
        warmStartInitialInstances: true,
      },
    });
  });
});

describe('the keys beyond BLIS', () => {
  it('autoscaler: policy, params, replica bounds and a cooldown', () => {
    const bundle = bundleOf({
      autoscaler: {
        interval_us: 1_000_000,
        policy: 'threshold',
        params: { upper: 0.9 },
        min_replicas: 0,
        max_replicas: 8,
        cooldown_us: 60_000_000,
        hpa_scrape_delay: { mean: 15, stddev: 2.5 },
      },
    });
    expect(autoscaleConfigFromBundle(bundle).config).toEqual({
      autoscaling: {
        intervalUs: 1_000_000,
        policy: 'threshold',
        params: { upper: 0.9 },
        minReplicas: 0,
        maxReplicas: 8,
        cooldownUs: 60_000_000,
        scrapeDelay: { meanUs: 15_000_000, stddevUs: 2_500_000 },
      },
    });
  });

  it('instance_lifecycle: the keys BLIS documents (drain policy in any case) and ours', () => {
    const bundle = bundleOf({
      instance_lifecycle: {
        loading_delay: { mean: 10, stddev: 1 },
        warm_up_request_count: 5,
        warm_up_ttft_factor: 2,
        drain_policy: 'REDIRECT',
        warm_up_duration: 1.1,
        provisioning_delay: { mean: 30 },
      },
    });
    expect(autoscaleConfigFromBundle(bundle).config).toEqual({
      lifecycle: {
        loadingDelay: { meanUs: 10_000_000, stddevUs: 1_000_000 },
        warmUpRequestCount: 5,
        warmUpTtftFactor: 2,
        drainPolicy: 'redirect',
        warmUpDurationUs: 1_100_000,
        provisioningDelay: { meanUs: 30_000_000, stddevUs: 0 },
      },
    });
    for (const spelling of ['WAIT', 'wait', 'Immediate']) {
      const l = autoscaleConfigFromBundle(bundleOf({ instance_lifecycle: { drain_policy: spelling } })).config.lifecycle;
      expect(l?.drainPolicy).toBe(spelling.toLowerCase());
    }
  });

  it("BLIS's zero values mean the defaults: warm_up_ttft_factor 0, drain_policy \"\", analyzer 0s", () => {
    const { config, warnings } = autoscaleConfigFromBundle(
      bundleOf({
        instance_lifecycle: { warm_up_ttft_factor: 0, drain_policy: '' },
        autoscaler: { interval_us: 5, analyzer: { kv_cache_threshold: 0, scale_up_threshold: 0.9 } },
      }),
    );
    expect(config.lifecycle).toEqual({});
    expect(config.autoscaling).toEqual({ intervalUs: 5, policy: 'wva-saturation', params: { scale_up_threshold: 0.9 } });
    expect(warnings).toEqual([]);
  });

  it('a node pool keeps only the keys it gives (the config supplies the defaults)', () => {
    expect(autoscaleConfigFromBundle(bundleOf({ node_pools: [POOL] })).config).toEqual({
      nodePools: [{ name: 'h100', gpuType: 'H100', gpusPerNode: 1, gpuMemoryGib: 80, maxNodes: 4 }],
    });
    expect(autoscaleConfigFromBundle(bundleOf({ node_pools: [] })).config).toEqual({});
  });

  it('seconds convert without binary noise', () => {
    expect(secondsToUs(1.1)).toBe(1_100_000);
    expect(secondsToUs(0.3)).toBe(300_000);
    expect(secondsToUs(240)).toBe(240_000_000);
    expect(secondsToUs(1e-6)).toBe(1);
  });
});

describe('which autoscaler gets which settings', () => {
  it('the analyzer goes to wva-saturation only; a flag naming another autoscaler drops it, with a warning', () => {
    const bundle = bundleOf({ autoscaler: { interval_us: 1, analyzer: { kv_cache_threshold: 0.7 } } });
    expect(autoscaleConfigFromBundle(bundle).config.autoscaling).toEqual({
      intervalUs: 1,
      policy: 'wva-saturation',
      params: { kv_cache_threshold: 0.7 },
    });
    const other = autoscaleConfigFromBundle(bundle, { policy: 'threshold' });
    expect(other.config.autoscaling).toEqual({ intervalUs: 1, policy: 'threshold' });
    expect(other.warnings).toEqual(['autoscaler.analyzer ignored: autoscaler "threshold" does not use it (wva-saturation does)']);
  });

  it("params go to the section's policy; when a flag names another one they are dropped, with a warning", () => {
    const bundle = bundleOf({ autoscaler: { policy: 'threshold', params: { upper: 2 } } });
    const other = autoscaleConfigFromBundle(bundle, { policy: 'wva-saturation' });
    expect(other.config.autoscaling).toEqual({ policy: 'wva-saturation' });
    expect(other.warnings).toEqual(['autoscaler.params ignored: they belong to "threshold", but "wva-saturation" runs']);
    // A section without a policy: its params go to the one that runs.
    const open = autoscaleConfigFromBundle({ autoscaler: { params: { upper: 1 } } }, { policy: 'threshold' });
    expect(open.config.autoscaling).toEqual({ policy: 'threshold', params: { upper: 1 } });
    expect(open.warnings).toEqual([]);
  });
});

describe('bad autoscaling sections: every issue at its key', () => {
  it.each<[string, unknown, { path: string; message: string }[]]>([
    [
      'negative delays',
      {
        autoscaler: { hpa_scrape_delay: { mean: -1 } },
        instance_lifecycle: { loading_delay: { mean: 1, stddev: -2 }, provisioning_delay: { mean: -3 }, warm_up_duration: -4 },
        node_pools: [{ ...POOL, provisioning_delay: { mean: -5 } }],
      },
      [
        { path: 'node_pools[0].provisioning_delay.mean', message: 'expected a finite number of seconds >= 0; found -5' },
        { path: 'autoscaler.hpa_scrape_delay.mean', message: 'expected a finite number of seconds >= 0; found -1' },
        { path: 'instance_lifecycle.loading_delay.stddev', message: 'expected a finite number of seconds >= 0; found -2' },
        { path: 'instance_lifecycle.warm_up_duration', message: 'expected a finite number of seconds >= 0; found -4' },
        { path: 'instance_lifecycle.provisioning_delay.mean', message: 'expected a finite number of seconds >= 0; found -3' },
      ],
    ],
    [
      'min_replicas > max_replicas',
      { autoscaler: { min_replicas: 3, max_replicas: 2 } },
      [{ path: 'autoscaler.min_replicas', message: 'expected min_replicas <= max_replicas (2), found 3' }],
    ],
    [
      'max_replicas 0, a fractional min_replicas, a negative cooldown',
      { autoscaler: { min_replicas: 1.5, max_replicas: 0, cooldown_us: -1 } },
      [
        { path: 'autoscaler.min_replicas', message: 'expected an integer >= 0; found 1.5' },
        { path: 'autoscaler.max_replicas', message: 'expected an integer >= 1; found 0' },
        { path: 'autoscaler.cooldown_us', message: 'expected a number of microseconds >= 0; found -1' },
      ],
    ],
    [
      'an unknown autoscaler',
      { autoscaler: { policy: 'bogus' } },
      [{ path: 'autoscaler.policy', message: 'unknown autoscaler "bogus"; valid: queue-depth, target-utilization, threshold, wva-saturation' }],
    ],
    [
      'duplicate pool names',
      { node_pools: [POOL, { ...POOL, name: 'a100' }, { ...POOL }] },
      [{ path: 'node_pools[2].name', message: 'duplicate node pool name "h100"; each pool name may appear at most once' }],
    ],
    [
      'scale_down_boundary >= scale_up_threshold',
      { autoscaler: { analyzer: { scale_up_threshold: 0.5, scale_down_boundary: 0.5 } } },
      [{ path: 'autoscaler.analyzer.scale_down_boundary', message: 'expected scale_down_boundary < the effective scale_up_threshold (0.5), found 0.5' }],
    ],
    [
      'a scale_up_threshold under the default scale_down_boundary (0.4)',
      { autoscaler: { analyzer: { scale_up_threshold: 0.3 } } },
      [{ path: 'autoscaler.analyzer.scale_up_threshold', message: 'expected scale_up_threshold > the effective scale_down_boundary (0.4), found 0.3' }],
    ],
    [
      'unknown keys',
      { autoscaler: { interval: 5 }, instance_lifecycle: { warmup: 1 }, node_pools: [{ ...POOL, gpus: 2 }] },
      [
        { path: 'node_pools[0].gpus', message: 'unknown field (not a parameter of this policy)' },
        { path: 'autoscaler.interval', message: 'unknown field (not a parameter of this policy)' },
        { path: 'instance_lifecycle.warmup', message: 'unknown field (not a parameter of this policy)' },
      ],
    ],
    [
      'a warm-up factor under 1, a negative request count, an unknown drain policy',
      { instance_lifecycle: { warm_up_ttft_factor: 0.5, warm_up_request_count: -1, drain_policy: 'SOON' } },
      [
        { path: 'instance_lifecycle.warm_up_request_count', message: 'expected an integer >= 0; found -1' },
        { path: 'instance_lifecycle.warm_up_ttft_factor', message: 'expected a number >= 1 (0 = default, 1); found 0.5' },
        { path: 'instance_lifecycle.drain_policy', message: 'expected a drain policy: WAIT, IMMEDIATE or REDIRECT; found "SOON"' },
      ],
    ],
    [
      "a bad param of the autoscaler, at the analyzer's key or under params",
      { autoscaler: { analyzer: { kv_cache_threshold: 0.5 }, params: { avg_input_tokens: 'many' } } },
      [{ path: 'autoscaler.params.avg_input_tokens', message: 'expected a number; found "many"' }],
    ],
    [
      'a param set twice (analyzer and params)',
      { autoscaler: { analyzer: { kv_cache_threshold: 0.5 }, params: { kv_cache_threshold: 0.6 } } },
      [{ path: 'autoscaler.params.kv_cache_threshold', message: '"kv_cache_threshold" is also set by autoscaler.analyzer.kv_cache_threshold; set it once' }],
    ],
    [
      "a param the section's autoscaler does not have",
      { autoscaler: { policy: 'threshold', params: { lower: 1 } } },
      [{ path: 'autoscaler.params.lower', message: 'unknown field (not a parameter of this policy)' }],
    ],
  ])('%s', (_what, input, issues) => {
    expect(issuesOf(input)).toEqual(issues);
  });
});
