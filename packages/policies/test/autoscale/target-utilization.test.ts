import { describe, expect, it } from 'vitest';
import { PolicyParamsError } from '../../src/index.js';
import { createTargetUtilizationAutoscaler } from '../../src/internal.js';
import { context } from './helpers.js';

// Defaults: metric kv-utilization, target 0.7, tolerance 0.1.
const hpa = createTargetUtilizationAutoscaler();
const kv = (...values: number[]) => values.map((kvUtilization) => ({ kvUtilization }));

describe('target-utilization (kv-utilization)', () => {
  it('scales up to ceil(sum / target)', () => {
    // sum = 0.9 + 0.95 + 1.0 = 2.85; mean 0.95; ratio = 0.95 / 0.7 = 1.357 > 1.1.
    // desired = ceil(2.85 / 0.7) = ceil(4.07) = 5; delta = 5 - 3 = +2.
    const d = hpa.evaluate(context(kv(0.9, 0.95, 1.0)));
    expect(d.delta).toBe(2);
    expect(d.signals?.desired).toBe(5);
    expect(d.signals?.ratio).toBeCloseTo(0.95 / 0.7, 12);
    expect(d.reason).toBe('kv utilization 0.950 vs target 0.700: desired 5: +2');
  });

  it('holds within the tolerance', () => {
    // mean (0.75 + 0.7) / 2 = 0.725; ratio 1.036; |0.036| <= 0.1.
    const d = hpa.evaluate(context(kv(0.75, 0.7)));
    expect(d.delta).toBe(0);
    expect(d.reason).toBe(
      'kv utilization 0.725 vs target 0.700: ratio 1.036 within tolerance 0.100: hold',
    );
    // tolerance 0.01: out of it; desired = ceil(1.45 / 0.7) = ceil(2.07) = 3: +1.
    expect(createTargetUtilizationAutoscaler({ tolerance: 0.01 }).evaluate(context(kv(0.75, 0.7))).delta).toBe(1);
  });

  it('ignores floating-point noise in ceil', () => {
    // sum = 0.9 + 0.9 + 0.3 = 2.1 and 2.1 / 0.7 = 3.0000000000000004 in floating point: a plain
    // ceil would give 4. By hand desired = 3 = current: hold, even with tolerance 0.
    const d = createTargetUtilizationAutoscaler({ tolerance: 0 }).evaluate(context(kv(0.9, 0.9, 0.3)));
    expect(d.signals?.desired).toBe(3);
    expect(d.delta).toBe(0);
  });

  it('scales down to ceil(sum / target), never below minReplicas', () => {
    // sum = 4 x 0.2 = 0.8; ratio 0.286; desired = ceil(0.8 / 0.7) = ceil(1.14) = 2: -2.
    expect(hpa.evaluate(context(kv(0.2, 0.2, 0.2, 0.2))).delta).toBe(-2);
    // minReplicas 3: only 4 - 3 = 1.
    const capped = hpa.evaluate(context(kv(0.2, 0.2, 0.2, 0.2), { minReplicas: 3 }));
    expect(capped.delta).toBe(-1);
    expect(capped.signals?.desired).toBe(2);
    // Idle: desired 0; min 1 keeps one, min 0 lets all go.
    expect(hpa.evaluate(context(kv(0, 0, 0))).delta).toBe(-2);
    expect(hpa.evaluate(context(kv(0, 0, 0), { minReplicas: 0 })).delta).toBe(-3);
    const atMin = hpa.evaluate(context(kv(0, 0, 0), { minReplicas: 3 }));
    expect(atMin.delta).toBe(0);
    expect(atMin.reason).toBe('kv utilization 0.000 vs target 0.700: desired 0, at min replicas 3: hold');
  });

  it('counts pending replicas at zero load on a scale-up, as HPA', () => {
    // 2 routable at 0.9, 1 pending: ratio 0.9 / 0.7 = 1.29 > 1, but with the pending one at 0:
    // 1.8 / (3 x 0.7) = 0.857 <= 1: hold.
    const held = hpa.evaluate(context(kv(0.9, 0.9), { pendingReplicas: 1 }));
    expect(held.delta).toBe(0);
    expect(held.reason).toBe('kv utilization 0.900 vs target 0.700: ratio 0.857 with 1 pending: hold');
    // 3 routable at 1.0, 1 pending: 3 / (4 x 0.7) = 1.071, within tolerance: hold.
    expect(hpa.evaluate(context(kv(1, 1, 1), { pendingReplicas: 1 })).delta).toBe(0);
    // 4 routable at 1.0, 1 pending: 4 / (5 x 0.7) = 1.143 > 1.1; desired = ceil(4 / 0.7) =
    // ceil(5.71) = 6; current = 4 + 1 = 5: +1 (without the pending one it would be +2).
    expect(hpa.evaluate(context(kv(1, 1, 1, 1), { pendingReplicas: 1 })).delta).toBe(1);
    expect(hpa.evaluate(context(kv(1, 1, 1, 1))).delta).toBe(2);
  });

  it('scales from zero', () => {
    expect(hpa.evaluate(context([], { waitingRequests: 5, minReplicas: 0 })).delta).toBe(1);
    expect(hpa.evaluate(context([], { waitingRequests: 5, pendingReplicas: 2 })).delta).toBe(0);
  });
});

describe('target-utilization (queue-depth)', () => {
  it('sizes by queued plus waiting requests per replica (target default 4)', () => {
    // sum = 10 + 6 + 4 waiting = 20; mean 10; ratio 2.5; desired = ceil(20 / 4) = 5: +3.
    const q = createTargetUtilizationAutoscaler({ metric: 'queue-depth' });
    const d = q.evaluate(context([{ queueDepth: 10 }, { queueDepth: 6 }], { waitingRequests: 4 }));
    expect(d.delta).toBe(3);
    expect(d.reason).toBe('queue depth 10.000 vs target 4.000: desired 5: +3');
    // target 8: desired = ceil(20 / 8) = 3: +1.
    const q8 = createTargetUtilizationAutoscaler({ metric: 'queue-depth', target: 8 });
    expect(q8.evaluate(context([{ queueDepth: 10 }, { queueDepth: 6 }], { waitingRequests: 4 })).delta).toBe(1);
  });
});

describe('target-utilization params', () => {
  it('rejects bad params naming the param', () => {
    const issues = (params: Record<string, unknown>) => {
      try {
        createTargetUtilizationAutoscaler(params);
      } catch (err) {
        expect(err).toBeInstanceOf(PolicyParamsError);
        return (err as PolicyParamsError).issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      }
      return [];
    };
    expect(issues({ target: 1.5 })).toEqual([
      'target: target (1.5) must be in (0, 1] with metric "kv-utilization"',
    ]);
    expect(issues({ metric: 'queue-depth', target: 1.5 })).toEqual([]);
    expect(issues({ target: 0 })[0]).toMatch(/^target: expected a finite number > 0; found 0/);
    expect(issues({ tolerance: -0.1 })[0]).toMatch(/^tolerance: expected a finite number >= 0; found -0\.1/);
    expect(issues({ metric: 'max' })[0]).toMatch(/^metric: expected "kv-utilization" or "queue-depth"/);
  });
});
