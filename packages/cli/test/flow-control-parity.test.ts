import { describe, expect, it } from 'vitest';
import { FLOW_RUNS, compareFlowRun, isEvicted } from './flow-control-parity-runs.js';
import { formatComparison, isExactMatch } from './parity-compare.js';

// Request-level parity of gateway flow control with BLIS HEAD (f90a1e3a), on an overloaded pair
// of instances (fixtures/blis-flow-control/README.md): every detector, every dispatch order,
// per-band capacity with head-of-line gating, TTL, shedding and in-flight eviction.

describe('flow control: request-level parity with BLIS HEAD', () => {
  for (const run of FLOW_RUNS) {
    it(run.name, () => {
      const { comparison: cmp, result: r, reference: ref, gateway } = compareFlowRun(run);
      expect(isExactMatch(cmp), formatComparison(cmp)).toBe(true);
      // The gateway's counts, bucket by bucket.
      expect(gateway.ours).toEqual(gateway.blis);
      const gw = gateway.blis;

      // Evicted requests: the same ones, evicted from the same instance after the same first token.
      const evicted = new Map((r.unfinished_requests ?? []).filter((u) => u.outcome === 'evicted').map((u) => [u.request_id, u]));
      const refEvicted = ref.requests.filter(isEvicted);
      expect(evicted.size).toBe(refEvicted.length);
      for (const q of refEvicted) {
        const u = evicted.get(q.id);
        expect(u, `request ${q.id} evicted in BLIS`).toBeDefined();
        expect([u!.handled_by, Math.round((u!.ttft_ms ?? 0) * 1000), Math.round((u!.scheduling_delay_ms ?? 0) * 1000)]).toEqual([
          q.handledBy,
          Math.round(q.ttftMs * 1000),
          Math.round(q.schedulingDelayMs * 1000),
        ]);
      }

      // Every other request BLIS has no record of was turned away, displaced or expired here.
      const turnedAway = (r.unfinished_requests ?? []).filter((u) => u.outcome === 'shed' || u.outcome === 'expired');
      expect(turnedAway.length).toBe(gw.gateway_queue_rejected + gw.gateway_queue_shed + gw.gateway_expired);
      expect(r.completed_requests + turnedAway.length + evicted.size).toBe(1500);
    }, 60_000);
  }
});
