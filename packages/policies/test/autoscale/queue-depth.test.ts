import { describe, expect, it } from 'vitest';
import { PolicyParamsError } from '../../src/index.js';
import { createQueueDepthAutoscaler } from '../../src/internal.js';
import { context } from './helpers.js';

// Defaults: target_queue_depth 4, scale_down_queue_depth 0.5, scale_down_kv_utilization 0.5.
// Replicas hold 160,000 KV tokens each.
const qd = createQueueDepthAutoscaler();

describe('queue-depth', () => {
  it('scales up to ceil(queued / target_queue_depth), pending replicas counted', () => {
    // queued = 9 + 7 + 4 waiting = 20; desired = ceil(20 / 4) = 5; current 2: +3.
    const replicas = [{ queueDepth: 9 }, { queueDepth: 7 }];
    const d = qd.evaluate(context(replicas, { waitingRequests: 4 }));
    expect(d.delta).toBe(3);
    expect(d.reason).toBe('queue 20 (10.000/replica), desired 5: +3');
    // One pending: current 3: +2.
    expect(qd.evaluate(context(replicas, { waitingRequests: 4, pendingReplicas: 1 })).delta).toBe(2);
    // target 10: desired = ceil(20 / 10) = 2 = current, mean queue 10 >= 0.5: hold.
    const wide = createQueueDepthAutoscaler({ target_queue_depth: 10 });
    expect(wide.evaluate(context(replicas, { waitingRequests: 4 }))).toMatchObject({
      delta: 0,
      reason: 'queue 20 (10.000/replica), desired 2: hold',
    });
  });

  it('scales down one replica when the queue is short and the batches fit in the others', () => {
    // queued 0 < 0.5 per replica; KV in use 30,000 + 30,000 + 0 = 60,000;
    // capacity without the largest = 3 x 160,000 - 160,000 = 320,000; 0.5 x 320,000 = 160,000
    // >= 60,000: -1.
    const light = [{ kvTokensInUse: 30_000 }, { kvTokensInUse: 30_000 }, {}];
    const d = qd.evaluate(context(light));
    expect(d.delta).toBe(-1);
    expect(d.signals).toEqual({ queued: 0, avgQueue: 0, desired: 0, kvInUse: 60_000, kvCapacityAfter: 320_000 });
    expect(d.reason).toBe('queue 0 (0.000/replica), desired 0: queue below 0.500: -1');
  });

  it('holds while the batches would not fit in one replica fewer', () => {
    // KV in use 3 x 60,000 = 180,000 > 0.5 x 320,000 = 160,000: hold.
    const heavy = [{ kvTokensInUse: 60_000 }, { kvTokensInUse: 60_000 }, { kvTokensInUse: 60_000 }];
    const d = qd.evaluate(context(heavy));
    expect(d.delta).toBe(0);
    expect(d.reason).toBe(
      'queue 0 (0.000/replica), desired 0: KV in use 180000 > 0.500 x 320000 left without a replica: hold',
    );
    // scale_down_kv_utilization 0.6: 180,000 <= 192,000: -1.
    expect(createQueueDepthAutoscaler({ scale_down_kv_utilization: 0.6 }).evaluate(context(heavy)).delta).toBe(-1);
  });

  it('holds while the mean queue is at or above scale_down_queue_depth', () => {
    // queued 1 + 0 = 1 over 2 replicas: 0.5, not < 0.5; desired = ceil(1 / 4) = 1 < 2.
    expect(qd.evaluate(context([{ queueDepth: 1 }, {}])).delta).toBe(0);
    // The same with a waiting request instead of a queued one.
    expect(qd.evaluate(context([{}, {}], { waitingRequests: 1 })).delta).toBe(0);
    expect(qd.evaluate(context([{}, {}])).delta).toBe(-1);
  });

  it('never goes below minReplicas; an idle single replica goes only with minReplicas 0', () => {
    // One idle replica: KV in use 0 <= 0.5 x 0 left: it may go, if the bounds allow.
    expect(qd.evaluate(context([{}], { minReplicas: 0 })).delta).toBe(-1);
    const atMin = qd.evaluate(context([{}], { minReplicas: 1 }));
    expect(atMin.delta).toBe(0);
    expect(atMin.reason).toBe('queue 0 (0.000/replica), desired 0: at min replicas 1: hold');
    // A busy single replica stays even with minReplicas 0: 1 token > 0.5 x 0.
    expect(qd.evaluate(context([{ kvTokensInUse: 1 }], { minReplicas: 0 })).delta).toBe(0);
  });

  it('scales from zero', () => {
    expect(qd.evaluate(context([], { waitingRequests: 9, minReplicas: 0 })).delta).toBe(1);
    expect(qd.evaluate(context([], { waitingRequests: 9, pendingReplicas: 1 })).delta).toBe(0);
  });

  it('rejects bad params naming the param', () => {
    const issues = (params: Record<string, unknown>) => {
      try {
        createQueueDepthAutoscaler(params);
      } catch (err) {
        expect(err).toBeInstanceOf(PolicyParamsError);
        return (err as PolicyParamsError).issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      }
      return [];
    };
    expect(issues({ scale_down_queue_depth: 4 })).toEqual([
      'scale_down_queue_depth: scale_down_queue_depth (4) must be < target_queue_depth (4)',
    ]);
    expect(issues({ target_queue_depth: -1 })[0]).toMatch(/^target_queue_depth: expected a finite number > 0; found -1/);
    expect(issues({ scale_down_kv_utilization: 2 })[0]).toMatch(/^scale_down_kv_utilization: expected a number in \[0, 1\]; found 2/);
  });
});
