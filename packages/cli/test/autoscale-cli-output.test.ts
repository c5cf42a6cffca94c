import { scaleOscillationWindowUs as scaleCooldownUs } from '@blis/cluster/internal';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeAutoscaling } from '../src/commands/simulate-command.js';
import { createTracing } from '../src/output/tracing.js';
import { blis } from './blis-process.js';
import { PHASE2, configOf, tmp } from './autoscale-cli-helpers.js';

// What an autoscaled run writes: the trace's scale-oscillation window and the result's
// autoscaling section as the CLI describes it.

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
