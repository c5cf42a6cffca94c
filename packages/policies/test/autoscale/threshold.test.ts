import { describe, expect, it } from 'vitest';
import { PolicyParamsError } from '../../src/index.js';
import { createThresholdAutoscaler } from '../../src/internal.js';
import { context } from './helpers.js';

// Defaults: metric max, up 0.8, down 0.3, queue_threshold 5, step 1.
const threshold = createThresholdAutoscaler();

describe('threshold', () => {
  it('scales up when the KV load is above scale_up_threshold', () => {
    // kv = (0.9 + 0.8) / 2 = 0.85; queue = 0; load = max = 0.85 > 0.8 -> +1.
    const d = threshold.evaluate(context([{ kvUtilization: 0.9 }, { kvUtilization: 0.8 }]));
    expect(d.delta).toBe(1);
    expect(d.signals?.load).toBeCloseTo(0.85, 12);
    expect(d.reason).toBe('load 0.850 (kv 0.850, queue 0.000) > 0.800: +1');
  });

  it('counts queued and waiting requests per replica against queue_threshold', () => {
    // queue = (6 + 4 + 2 waiting) / (2 replicas x 5) = 1.2; kv = 0.1.
    const ctx = context(
      [
        { kvUtilization: 0.1, queueDepth: 6 },
        { kvUtilization: 0.1, queueDepth: 4 },
      ],
      { waitingRequests: 2 },
    );
    const max = threshold.evaluate(ctx);
    expect(max.signals?.queue).toBeCloseTo(1.2, 12);
    expect(max.delta).toBe(1);
    // metric queue-depth: the same; metric kv-utilization: 0.1 < 0.3 -> -1 (2 > min 1).
    expect(createThresholdAutoscaler({ metric: 'queue-depth' }).evaluate(ctx).delta).toBe(1);
    expect(createThresholdAutoscaler({ metric: 'kv-utilization' }).evaluate(ctx).delta).toBe(-1);
    // queue_threshold 20: queue = 12 / 40 = 0.3, not < 0.3 and not > 0.8: hold.
    const wide = createThresholdAutoscaler({ metric: 'queue-depth', queue_threshold: 20 });
    expect(wide.evaluate(ctx).delta).toBe(0);
  });

  it('counts pending replicas as capacity before scaling up again', () => {
    // load 0.85 over 2 routable, 1 pending: 0.85 x 2 / 3 = 0.567 <= 0.8: hold.
    const ctx = context([{ kvUtilization: 0.9 }, { kvUtilization: 0.8 }], { pendingReplicas: 1 });
    const d = threshold.evaluate(ctx);
    expect(d.delta).toBe(0);
    expect(d.signals?.projected).toBeCloseTo(0.85 * (2 / 3), 12);
    expect(d.reason).toBe('load 0.850 (kv 0.850, queue 0.000) > 0.800 but 0.567 with 1 pending: hold');
    // Load 1 over 2 routable with 1 pending: 1 x 2 / 3 = 0.667: hold; with none pending: +1.
    const full = [{ kvUtilization: 1 }, { kvUtilization: 1 }];
    expect(threshold.evaluate(context(full, { pendingReplicas: 1 })).delta).toBe(0);
    expect(threshold.evaluate(context(full)).delta).toBe(1);
  });

  it('scales down by step, never below minReplicas', () => {
    // kv = (0.1 + 0.2 + 0.3) / 3 = 0.2 < 0.3.
    const replicas = [{ kvUtilization: 0.1 }, { kvUtilization: 0.2 }, { kvUtilization: 0.3 }];
    const step2 = createThresholdAutoscaler({ step: 2 });
    expect(step2.evaluate(context(replicas, { minReplicas: 0 })).delta).toBe(-2);
    // 3 - 2 = 1 may go.
    expect(step2.evaluate(context(replicas, { minReplicas: 2 })).delta).toBe(-1);
    const atMin = step2.evaluate(context(replicas, { minReplicas: 3 }));
    expect(atMin.delta).toBe(0);
    expect(atMin.reason).toBe('load 0.200 (kv 0.200, queue 0.000) < 0.300, at min replicas 3: hold');
    // step 2 up as well.
    expect(step2.evaluate(context([{ kvUtilization: 0.95 }])).delta).toBe(2);
  });

  it('holds between the thresholds, bounds included', () => {
    expect(threshold.evaluate(context([{ kvUtilization: 0.5 }])).delta).toBe(0);
    expect(threshold.evaluate(context([{ kvUtilization: 0.8 }, { kvUtilization: 0.8 }])).delta).toBe(0);
    const low = threshold.evaluate(context([{ kvUtilization: 0.3 }, { kvUtilization: 0.3 }]));
    expect(low.delta).toBe(0);
    expect(low.reason).toBe('load 0.300 (kv 0.300, queue 0.000) within [0.300, 0.800]: hold');
  });

  it('scales from zero', () => {
    expect(threshold.evaluate(context([], { waitingRequests: 1, minReplicas: 0 })).delta).toBe(1);
    expect(threshold.evaluate(context([], { waitingRequests: 1, pendingReplicas: 1 })).delta).toBe(0);
    expect(threshold.evaluate(context([], { minReplicas: 0 })).delta).toBe(0);
  });

  it('rejects bad params naming the param', () => {
    const issues = (params: Record<string, unknown>) => {
      try {
        createThresholdAutoscaler(params);
      } catch (err) {
        expect(err).toBeInstanceOf(PolicyParamsError);
        return (err as PolicyParamsError).issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      }
      return [];
    };
    expect(issues({ scale_down_threshold: 0.8 })).toEqual([
      'scale_down_threshold: scale_down_threshold (0.8) must be < scale_up_threshold (0.8)',
    ]);
    expect(issues({ metric: 'cpu' })[0]).toMatch(/^metric: expected "kv-utilization", "queue-depth" or "max"; found "cpu"/);
    expect(issues({ step: 1.5 })[0]).toMatch(/^step: expected an integer > 0; found 1\.5/);
    expect(issues({ queue_threshold: 0 })[0]).toMatch(/^queue_threshold: /);
  });
});
