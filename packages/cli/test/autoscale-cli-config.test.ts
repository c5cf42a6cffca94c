
import type { SimulationConfigInput } from '@blis/cluster';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AUTOSCALER_INTERVAL_US } from '../src/config/autoscale-flags.js';
import { durationUs } from '../src/flags/flags.js';
import { PHASE2, PHASE2_CONFIG, configOf, file, stderrOf } from './autoscale-cli-helpers.js';

// Autoscaling on the command line as config: the `--policy-config` sections `autoscaler`,
// `node_pools` and `instance_lifecycle` and the Autoscaling flags as the config's `autoscaling`,
// `nodePools` and `lifecycle` (flags win; seconds and unit-suffixed durations become µs). No case
// depends on the autoscaler's behaviour.

afterEach(() => {
  vi.restoreAllMocks();
});

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
