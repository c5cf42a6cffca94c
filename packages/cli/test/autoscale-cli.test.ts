import { scaleOscillationWindowUs as scaleCooldownUs } from '@blis/cluster/internal';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulationConfigInput } from '@blis/cluster';
import { type AutoScaleFactory, listPolicies, registerAutoscaler } from '@blis/policies';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AUTOSCALER_INTERVAL_US } from '../src/config/autoscale-flags.js';
import { buildConfig } from '../src/config/build-config.js';
import { describeAutoscaling } from '../src/commands/simulate-command.js';
import { customAutoscalerName, customRuntime, preparePolicies } from '../src/policy-modules/index.js';
import { durationUs, parseFlags } from '../src/flags/flags.js';
import { buildProgram } from '../src/main.js';
import { SIMULATION_FLAGS } from '../src/flags/run-flags.js';
import { createTracing } from '../src/output/tracing.js';
import { ROOT, blis, rejects } from './blis-process.js';

// Autoscaling on the command line: the `--policy-config` sections `autoscaler`, `node_pools` and
// `instance_lifecycle` and the Autoscaling flags as the config's `autoscaling`, `nodePools` and
// `lifecycle` (flags win; seconds and unit-suffixed durations become µs), a custom autoscaler
// module, the trace's oscillation window, and bad input: exit 2, nothing on stdout, one line
// naming the flag or the file, line and key. No case depends on the autoscaler's behaviour.

const tmp = mkdtempSync(join(tmpdir(), 'blis-autoscale-'));
const RUN = ['run', '--num-requests', '5', '--quiet'];
const PHASE2 = join(ROOT, 'examples', 'workloads', 'phase2-autoscaler.yaml');
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

// The autoscalers a `blis` process knows (before the in-process registration below).
const BUILTIN_AUTOSCALERS = listPolicies().autoscaler;
// A registered autoscaler for the in-process cases that name one, independent of the built-in ones.
const hold: AutoScaleFactory = () => ({ name: 'test-hold', evaluate: () => ({ delta: 0, reason: 'hold' }) });
registerAutoscaler('test-hold', hold, { replace: true });

/** The config `blis <command> <args>` would simulate, built in-process through the real argument parser. */
async function configOf(args: readonly string[], quiet = true): Promise<SimulationConfigInput> {
  const program = buildProgram();
  const run = program.commands.find((c) => c.name() === 'run');
  if (run === undefined) throw new Error('no run command');
  let cfg: SimulationConfigInput | undefined;
  run.action(async (opts: Record<string, unknown>) => {
    const flags = parseFlags(SIMULATION_FLAGS, opts);
    cfg = buildConfig(flags, undefined, await preparePolicies(flags));
  });
  await program.parseAsync(['run', ...(quiet ? ['--quiet'] : []), ...args], { from: 'user' });
  if (cfg === undefined) throw new Error('run action not called');
  return cfg;
}

/** stderr written while `f` runs. */
async function stderrOf(f: () => Promise<unknown>): Promise<string> {
  let text = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  try {
    await f();
  } finally {
    spy.mockRestore();
  }
  return text;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const PHASE2_CONFIG = {
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
  lifecycle: { loadingDelay: { meanUs: 240_000_000, stddevUs: 30_000_000 }, warmStartInitialInstances: true },
};

describe('durations on the command line', () => {
  it.each<[string, number | undefined]>([
    ['30s', 30_000_000],
    ['1.5m', 90_000_000],
    ['2m', 120_000_000],
    ['500ms', 500_000],
    ['250us', 250],
    ['250µs', 250],
    ['1.1s', 1_100_000],
    ['.5s', 500_000],
    ['0', 0],
    ['0s', 0],
    ['30', undefined],
    ['-1s', undefined],
    ['5h', undefined],
    ['s', undefined],
    ['', undefined],
  ])('%j is %j µs', (text, us) => {
    expect(durationUs(text)).toBe(us);
  });
});

describe('flags build config.autoscaling and config.lifecycle', () => {
  it('maps every flag to its field, in µs', async () => {
    const cfg = await configOf([
      ...['--autoscaler-enabled', '--autoscaler-policy', 'test-hold', '--autoscaler-min', '0', '--autoscaler-max', '6'],
      ...['--autoscaler-cooldown', '45s', '--scale-up-window', '4m', '--scale-down-window', '300000ms'],
      ...['--provisioning-delay', '30s', '--loading-delay', '1.5m', '--warmup-duration', '60s', '--warmup-requests', '5'],
      ...['--warmup-ttft-factor', '2.5', '--drain-policy', 'IMMEDIATE'],
    ]);
    expect(cfg.autoscaling).toEqual({
      intervalUs: DEFAULT_AUTOSCALER_INTERVAL_US,
      policy: 'test-hold',
      minReplicas: 0,
      maxReplicas: 6,
      cooldownUs: 45_000_000,
      scaleUpStabilizationWindowUs: 240_000_000,
      scaleDownStabilizationWindowUs: 300_000_000,
    });
    expect(cfg.lifecycle).toEqual({
      provisioningDelay: { meanUs: 30_000_000, stddevUs: 0 },
      loadingDelay: { meanUs: 90_000_000, stddevUs: 0 },
      warmUpDurationUs: 60_000_000,
      warmUpRequestCount: 5,
      warmUpTtftFactor: 2.5,
      drainPolicy: 'immediate',
    });
    expect(cfg.nodePools).toBeUndefined();
  });

  it("--model-autoscaler-interval-us (BLIS's flag) alone turns it on with the config's defaults", async () => {
    const cfg = await configOf(['--model-autoscaler-interval-us', '1000000']);
    expect(cfg.autoscaling).toEqual({ intervalUs: 1_000_000 });
    expect(cfg.lifecycle).toBeUndefined();
  });

  it('without autoscaling flags or sections the config has none of the three fields', async () => {
    const cfg = await configOf([]);
    expect(Object.keys(cfg)).not.toEqual(expect.arrayContaining(['autoscaling']));
    expect(cfg).not.toHaveProperty('nodePools');
    expect(cfg).not.toHaveProperty('lifecycle');
    // An explicit 0 is "off" too.
    expect(await configOf(['--model-autoscaler-interval-us', '0'])).not.toHaveProperty('autoscaling');
  });

  it('lifecycle flags need no autoscaler (startup replicas load and warm up too)', async () => {
    const cfg = await configOf(['--loading-delay', '10s', '--warmup-requests', '3']);
    expect(cfg).not.toHaveProperty('autoscaling');
    expect(cfg.lifecycle).toEqual({ loadingDelay: { meanUs: 10_000_000, stddevUs: 0 }, warmUpRequestCount: 3 });
  });
});

describe("--policy-config: BLIS's phase2-autoscaler.yaml and flags over it", () => {
  it('the file, unchanged, becomes the three config fields', async () => {
    const cfg = await configOf(['--policy-config', PHASE2]);
    expect({ autoscaling: cfg.autoscaling, nodePools: cfg.nodePools, lifecycle: cfg.lifecycle }).toEqual(PHASE2_CONFIG);
  });

  it('flags override its keys; a delay flag sets the mean and keeps the file\'s stddev', async () => {
    const cfg = await configOf([
      ...['--policy-config', PHASE2, '--model-autoscaler-interval-us', '10000000', '--scale-up-window', '60s'],
      ...['--provisioning-delay', '45s', '--loading-delay', '100s', '--autoscaler-max', '4', '--drain-policy', 'redirect'],
    ]);
    expect(cfg.autoscaling).toEqual({
      ...PHASE2_CONFIG.autoscaling,
      intervalUs: 10_000_000,
      scaleUpStabilizationWindowUs: 60_000_000,
      maxReplicas: 4,
    });
    expect(cfg.nodePools).toEqual([{ ...PHASE2_CONFIG.nodePools[0], provisioningDelay: { meanUs: 45_000_000, stddevUs: 0 } }]);
    expect(cfg.lifecycle).toEqual({
      loadingDelay: { meanUs: 100_000_000, stddevUs: 30_000_000 },
      provisioningDelay: { meanUs: 45_000_000, stddevUs: 0 },
      warmStartInitialInstances: true,
      drainPolicy: 'redirect',
    });
  });

  it("--autoscaler-enabled keeps the file's interval", async () => {
    expect((await configOf(['--policy-config', PHASE2, '--autoscaler-enabled'])).autoscaling?.intervalUs).toBe(30_000_000);
    const fast = file('fast.yaml', 'autoscaler:\n  interval_us: 5000000\n');
    expect((await configOf(['--policy-config', fast, '--autoscaler-enabled'])).autoscaling).toEqual({ intervalUs: 5_000_000, policy: 'wva-saturation' });
  });

  it('--model-autoscaler-interval-us 0 turns it off: its keys are named in a warning', async () => {
    let cfg: SimulationConfigInput | undefined;
    const err = await stderrOf(async () => {
      cfg = await configOf(['--policy-config', PHASE2, '--model-autoscaler-interval-us', '0'], false);
    });
    expect(cfg).not.toHaveProperty('autoscaling');
    expect(cfg?.nodePools).toEqual(PHASE2_CONFIG.nodePools);
    expect(err).toBe(
      'blis: warning: autoscaler.scale_up_stabilization_window_us, autoscaler.scale_down_stabilization_window_us, autoscaler.hpa_scrape_delay, autoscaler.analyzer ignored: the autoscaler is off (--model-autoscaler-interval-us 0)\n',
    );
  });

  it('a file with interval_us 0 and other keys: off, with a warning naming the file and line', async () => {
    const p = file('off.yaml', 'autoscaler:\n  interval_us: 0\n  max_replicas: 3\n');
    let cfg: SimulationConfigInput | undefined;
    const err = await stderrOf(async () => {
      cfg = await configOf(['--policy-config', p], false);
    });
    expect(cfg).not.toHaveProperty('autoscaling');
    expect(err).toBe(`blis: warning: autoscaler.max_replicas ignored: the autoscaler is off (${p}:2 autoscaler.interval_us 0)\n`);
  });

  it('--autoscaler-policy naming another autoscaler drops the analyzer, with a warning', async () => {
    let cfg: SimulationConfigInput | undefined;
    const err = await stderrOf(async () => {
      cfg = await configOf(['--policy-config', PHASE2, '--autoscaler-policy', 'test-hold'], false);
    });
    const { params: _params, ...rest } = PHASE2_CONFIG.autoscaling;
    expect(cfg?.autoscaling).toEqual({ ...rest, policy: 'test-hold' });
    expect(err).toBe('blis: warning: autoscaler.analyzer ignored: autoscaler "test-hold" does not use it (wva-saturation does)\n');
  });
});

describe('a custom autoscaler module (--autoscaler-policy ./module.mjs)', () => {
  const good = file(
    'autoscaler.mjs',
    'let built = 0;\nexport default (ctx) => ({ name: "mine", id: ++built, n: ctx.numInstances, evaluate: () => ({ delta: 0, reason: "hold" }) });\n',
  );

  it('is not in the config: the config keeps the default policy and no params', async () => {
    const cfg = await configOf(['--autoscaler-enabled', '--autoscaler-policy', good, '--autoscaler-max', '3']);
    expect(cfg.autoscaling).toEqual({ intervalUs: DEFAULT_AUTOSCALER_INTERVAL_US, maxReplicas: 3 });
  });

  it('reaches the simulation as runtime.autoscaler: one policy per scaling group', async () => {
    const runtime = customRuntime(await preparePolicies({ autoscalerPolicy: good }), { seed: 42, numInstances: 3, blockSizeTokens: 16 });
    expect(runtime.autoscaler).toBeTypeOf('function');
    const prefill = runtime.autoscaler?.('prefill') as unknown as { name: string; id: number; n: number; evaluate: unknown };
    const decode = runtime.autoscaler?.('decode') as unknown as { id: number };
    expect(prefill.name).toBe('mine');
    expect(prefill.n).toBe(3);
    expect(prefill.evaluate).toBeTypeOf('function');
    expect(decode.id).not.toBe(prefill.id);
    expect(customAutoscalerName(runtime)).toBe('mine');
  });

  it('runs, on `blis run` and on `blis replay` (BLIS refuses autoscaling on replay)', async () => {
    const trace = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-parity', 'azurecode2k.yaml');
    for (const args of [RUN, ['replay', '--quiet', '--trace', trace, '--max-requests', '5']]) {
      const r = await blis([...args, '--autoscaler-enabled', '--autoscaler-policy', good, '--autoscaler-max', '2']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).completed_requests).toBe(5);
    }
  });
});

describe('tracing', () => {
  it("the oscillation window is max(windows, interval, cooldown); the header names the autoscaler", async () => {
    expect(scaleCooldownUs(undefined)).toBeUndefined();
    expect(scaleCooldownUs({ intervalUs: 0, scaleUpStabilizationWindowUs: 9, scaleDownStabilizationWindowUs: 9, cooldownUs: 9 })).toBeUndefined();
    expect(scaleCooldownUs({ intervalUs: 30, scaleUpStabilizationWindowUs: 10, scaleDownStabilizationWindowUs: 20, cooldownUs: 40 })).toBe(40);

    // phase2: windows of 240 s. A reversal 200 s after a scale-up is an oscillation (it would
    // not be under the recorder's default of 60 s); one 250 s after is not.
    for (const [gapS, oscillates] of [
      [200, true],
      [250, false],
    ] as const) {
      const out = join(tmp, `trace-${gapS}.jsonl`);
      const cfg = await configOf(['--policy-config', PHASE2, '--trace-level', 'decisions', '--decision-trace', out]);
      const tracing = createTracing(cfg);
      if (tracing === undefined) throw new Error('no tracing');
      tracing.observer.onScaleAction({ pool: 'monolithic', before: 1, after: 2, instances: ['instance_1'], unplaced: 0 }, 0);
      tracing.observer.onScaleAction({ pool: 'monolithic', before: 2, after: 1, instances: ['instance_1'], unplaced: 0 }, gapS * 1e6);
      tracing.observer.finish(gapS * 1e6);
      const records = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string; kind?: string; policies?: Record<string, string> });
      expect(records[0].policies?.autoscaler).toBe('wva-saturation');
      expect(records.some((r) => r.kind === 'scale_oscillation'), `${gapS} s`).toBe(oscillates);
    }
  });
});

describe('the result', () => {
  it('a log line on stderr sums up the autoscaling section', () => {
    const line = describeAutoscaling({
      evaluations: 30,
      policy: 'wva-saturation',
      scale_up_events: 2,
      scale_down_events: 1,
      replicas_added: 3,
      replicas_drained: 1,
      unplaced_replicas: 1,
      peak_replicas: 4,
      mean_replicas: 2.3125,
      final_replicas: 3,
      gpu_seconds: 5432.11,
      cost_usd: 1.234,
    });
    expect(line).toBe('wva-saturation, 30 evaluations; 2 scale-ups (+3), 1 scale-down (-1); replicas peak 4, mean 2.31, final 3; 5432.1 GPU-s, $1.23; 1 replica found no node');
  });

  it('`blis policies` lists the autoscaler kind', async () => {
    const r = await blis(['policies']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('autoscaler');
  });
});

describe.concurrent('bad --policy-config sections: exit 2, file, line and key', () => {
  const POOL = (name: string) => `  - name: ${name}\n    gpu_type: H100\n    gpus_per_node: 1\n    gpu_memory_gib: 80\n    max_nodes: 2\n`;
  const known = BUILTIN_AUTOSCALERS;
  it.for<readonly [string, string, (p: string) => string]>([
    [
      'negative-delay',
      'instance_lifecycle:\n  loading_delay:\n    mean: -1\n',
      (p) => `${p}:3 instance_lifecycle.loading_delay.mean: expected a finite number of seconds >= 0, found -1`,
    ],
    [
      'negative-scrape-delay',
      'autoscaler:\n  interval_us: 1000000\n  hpa_scrape_delay:\n    mean: 1\n    stddev: -0.5\n',
      (p) => `${p}:5 autoscaler.hpa_scrape_delay.stddev: expected a finite number of seconds >= 0, found -0.5`,
    ],
    [
      'min-over-max',
      'autoscaler:\n  interval_us: 1000000\n  min_replicas: 3\n  max_replicas: 2\n',
      (p) => `${p}:3 autoscaler.min_replicas: expected min_replicas <= max_replicas (2), found 3`,
    ],
    [
      'unknown-autoscaler',
      'autoscaler:\n  interval_us: 1000000\n  policy: bogus\n',
      (p) => `${p}:3 autoscaler.policy: expected a known autoscaler (${known.length > 0 ? known.join(', ') : 'none registered'}), found "bogus"`,
    ],
    ['duplicate-pools', `node_pools:\n${POOL('a')}${POOL('b')}${POOL('a')}`, (p) => `${p}:12 node_pools[2].name: expected each node pool name at most once, found "a" again`],
    [
      'boundary-over-threshold',
      'autoscaler:\n  interval_us: 1000000\n  analyzer:\n    scale_up_threshold: 0.5\n    scale_down_boundary: 0.6\n',
      (p) => `${p}:5 autoscaler.analyzer.scale_down_boundary: expected scale_down_boundary < the effective scale_up_threshold (0.5), found 0.6`,
    ],
    [
      'unknown-key',
      'instance_lifecycle:\n  warm_start_initial_instances: true\n  warmup_requests: 3\n',
      (p) => `${p}:3 instance_lifecycle.warmup_requests: expected a known field, found unknown field "warmup_requests" (not a parameter of this policy)`,
    ],
    [
      'drain-policy',
      'instance_lifecycle:\n  drain_policy: SOON\n',
      (p) => `${p}:2 instance_lifecycle.drain_policy: expected a drain policy: WAIT, IMMEDIATE or REDIRECT, found "SOON"`,
    ],
    [
      'ttft-factor',
      'instance_lifecycle:\n  warm_up_ttft_factor: 0.5\n',
      (p) => `${p}:2 instance_lifecycle.warm_up_ttft_factor: expected a number >= 1 (0 = default, 1), found 0.5`,
    ],
  ])('%s.yaml', ([name, text, message], { expect }) => {
    const p = file(`${name}.yaml`, text);
    return rejects(expect, [...RUN, '--policy-config', p], message(p));
  });

  it('a flag against a file value names both', ({ expect }) => {
    const p = file('max.yaml', 'autoscaler:\n  interval_us: 1000000\n  max_replicas: 2\n');
    return rejects(expect, [...RUN, '--policy-config', p, '--autoscaler-min', '5'], `--autoscaler-min: expected at most ${p}:3 autoscaler.max_replicas (2), found 5`);
  });

  it('on replay too', ({ expect }) => {
    const p = file('replay-min-over-max.yaml', 'autoscaler:\n  min_replicas: 3\n  max_replicas: 2\n');
    const trace = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-parity', 'azurecode2k.yaml');
    return rejects(expect, ['replay', '--quiet', '--trace', trace, '--policy-config', p], `${p}:2 autoscaler.min_replicas: expected min_replicas <= max_replicas (2), found 3`);
  });
});

describe.concurrent('bad autoscaling flags: exit 2, the flag, expected and found', () => {
  const DURATION = 'expected a duration with its unit: us, ms, s or m (e.g. "30s", "2m", "500ms"; a bare 0 is none)';
  const ON = 'expected the autoscaler on (--autoscaler-enabled, --model-autoscaler-interval-us > 0, or autoscaler.interval_us > 0 in --policy-config)';
  const bad = file('bad-autoscaler.mjs', 'export default () => ({ name: "bad" });\n');
  it.for<readonly [string, readonly string[], string]>([
    ['a duration without its unit', ['--autoscaler-cooldown', '30'], `--autoscaler-cooldown: ${DURATION}, found "30" (no unit)`],
    ['a negative duration', ['--scale-up-window', '-5s'], `--scale-up-window: ${DURATION}, found "-5s"`],
    ['an unknown unit', ['--scale-down-window', '5h'], `--scale-down-window: ${DURATION}, found "5h"`],
    ['a malformed delay', ['--provisioning-delay', 'soon'], `--provisioning-delay: ${DURATION}, found "soon"`],
    ['a negative interval', ['--model-autoscaler-interval-us', '-1'], '--model-autoscaler-interval-us: expected a non-negative number, found "-1"'],
    ['--autoscaler-max 0', ['--autoscaler-enabled', '--autoscaler-max', '0'], '--autoscaler-max: expected a positive integer, found "0"'],
    ['a warm-up factor under 1', ['--warmup-ttft-factor', '0.5'], '--warmup-ttft-factor: expected a number >= 1 (1 = no slowdown), found "0.5"'],
    ['an unknown drain policy', ['--autoscaler-enabled', '--drain-policy', 'soon'], '--drain-policy: expected one of wait, immediate, redirect, found "soon"'],
    ['min over max', ['--autoscaler-enabled', '--autoscaler-min', '4', '--autoscaler-max', '2'], '--autoscaler-min: expected at most --autoscaler-max (2), found 4'],
    ['an autoscaler setting with the autoscaler off', ['--autoscaler-max', '3'], `--autoscaler-max: ${ON}, found no interval (off by default)`],
    ['a drain policy with the autoscaler off', ['--model-autoscaler-interval-us', '0', '--drain-policy', 'wait'], `--drain-policy: ${ON}, found --model-autoscaler-interval-us 0`],
    [
      '--autoscaler-enabled beside an interval of 0',
      ['--autoscaler-enabled', '--model-autoscaler-interval-us', '0'],
      '--autoscaler-enabled: expected no --model-autoscaler-interval-us 0 beside it (0 turns the autoscaler off), found --model-autoscaler-interval-us 0',
    ],
    [
      'an unknown autoscaler',
      ['--autoscaler-enabled', '--autoscaler-policy', 'bogus'],
      `--autoscaler-policy: expected ${BUILTIN_AUTOSCALERS.length > 0 ? `one of ${BUILTIN_AUTOSCALERS.join(', ')}, or ` : ''}an ES module path (./autoscaler.mjs), found "bogus"`,
    ],
    ['a module that does not exist', ['--autoscaler-enabled', '--autoscaler-policy', './no-such-autoscaler.mjs'], '--autoscaler-policy: expected a policy name or an existing ES module path, found "./no-such-autoscaler.mjs"'],
    ['a module without evaluate()', ['--autoscaler-enabled', '--autoscaler-policy', bad], `--autoscaler-policy ${bad}: expected an autoscaler policy object with a string "name" and an evaluate() method, found ["name"]`],
  ])('%s', ([_what, args, message], { expect }) => rejects(expect, [...RUN, ...args], message));

  it('replay takes the flags too', ({ expect }) => {
    const trace = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-parity', 'azurecode2k.yaml');
    return rejects(expect, ['replay', '--quiet', '--trace', trace, '--autoscaler-max', '3'], `--autoscaler-max: ${ON}, found no interval (off by default)`);
  });
});
