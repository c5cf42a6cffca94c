import { describe, expect, it } from 'vitest';
import { buildResult } from '../src/results.js';
import { buildCluster, resultOf, spec } from './helpers.js';

describe('per-request records account for every injected request', () => {
  it('gives each way of leaving its outcome, and what was left when the run stopped', () => {
    // One sequence at a time, 100 blocks of 16 tokens. Request 0 completes; 1 can never fit; 2
    // waits behind 0 past its deadline; 3 is mid-decode (1,000 tokens at about 7 ms each) and 4
    // waits behind it when the 2 s horizon ends the run.
    const specs = [
      spec(0, 0, 64, 4),
      spec(1, 10, 5000, 4),
      spec(2, 20, 64, 4, { deadlineUs: 120 }),
      spec(3, 1_000_000, 64, 1000),
      spec(4, 1_000_010, 64, 4),
    ];
    const r = resultOf(buildCluster(specs, { kvBlocks: 100, maxNumSeqs: 1, setup: { horizonUs: 2_000_000 } }));
    expect(r.requests!.map((q) => [q.request_id, q.outcome])).toEqual([['0', 'completed']]);
    const rest = r.unfinished_requests!;
    expect(rest.map((q) => [q.request_id, q.outcome])).toEqual([
      ['1', 'dropped_unservable'],
      ['2', 'timed_out'],
      ['3', 'still_running'],
      ['4', 'still_queued'],
    ]);
    const by = new Map(rest.map((q) => [q.request_id, q]));
    // A deadline is armed when the request reaches the wait queue (after its queueing delay), as in BLIS.
    expect(by.get('2')!.left_ms).toBeGreaterThanOrEqual(0.12);
    expect(by.get('2')!.ttft_ms).toBeNull();
    expect(by.get('2')!.scheduling_delay_ms).toBeNull();
    expect(by.get('3')!.left_ms).toBeNull();
    expect(by.get('3')!.ttft_ms).toBeGreaterThan(0);
    expect(by.get('3')!.handled_by).toBe('instance_0');
    expect(by.get('3')!.scheduling_delay_ms).toBeGreaterThanOrEqual(0);
    expect(r.requests![0].left_ms).toBeCloseTo(r.requests![0].arrival_ms + r.requests![0].e2e_ms, 9);
    expect(r.requests!.length + rest.length).toBe(r.injected_requests);
    expect([r.dropped_unservable, r.timed_out_requests, r.still_running, r.still_queued]).toEqual([1, 1, 1, 1]);
  });

  it('records rejected requests with no instance', () => {
    const specs = [spec(0, 0, 64, 4), spec(1, 5, 64, 4)];
    const r = resultOf(buildCluster(specs, { instances: 2, admission: 'reject-all' }));
    expect(r.requests).toEqual([]);
    expect(r.unfinished_requests!.map((q) => [q.request_id, q.outcome, q.handled_by, q.left_ms])).toEqual([
      ['0', 'rejected', '', 0],
      ['1', 'rejected', '', 0.005],
    ]);
  });

  it('keeps no records, and no list of leavers, without includeRequests', () => {
    const sim = buildCluster([spec(0, 0, 64, 4)], { admission: 'reject-all', setup: { recordRequestIds: false } });
    sim.run();
    expect(sim.left).toBeUndefined();
    const r = buildResult(sim, { sloTtftUs: 0, sloE2eUs: 0, includeRequests: false });
    expect(r.requests).toBeUndefined();
    expect(r.unfinished_requests).toBeUndefined();
  });
});
