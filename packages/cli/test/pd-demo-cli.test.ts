import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// BLIS's prefill/decode demo command, run unchanged through the `blis` process: it must be
// accepted as BLIS spells it and disaggregate every request (decider `always`).

const DEMO = [
  ...['run', '--model', 'qwen/qwen3-14b', '--num-instances', '4', '--prefill-instances', '2', '--decode-instances', '2'],
  ...['--pd-decider', 'always', '--pd-transfer-bandwidth', '25', '--pd-transfer-base-latency', '0.05', '--rate', '100', '--num-requests', '1000'],
];

describe(`blis ${DEMO.join(' ')}`, () => {
  it('exits 0 and hands all 1000 requests from 2 prefill to 2 decode pods, each completing or dropped for lack of decode KV', async () => {
    const r = await blis(DEMO);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout) as {
      injected_requests: number;
      completed_requests: number;
      instances: { instance_id: string; pool?: string; completed_requests: number }[];
      pd: Record<string, unknown> & { pools: Record<string, string[]>; dropped_at_decode_kv: number };
    };
    expect(res.injected_requests).toBe(1000);
    // BLIS's constant 100 req/s load fills the decode pods' KV caches: a request whose transfer
    // finds no room there is dropped (BLIS HEAD drops 394 of these 1,000 on its derived 15,909
    // blocks; how many here depends on the derived KV capacity), every other one completes.
    const dropped = res.pd.dropped_at_decode_kv;
    expect(res.completed_requests + dropped).toBe(1000);
    expect(res.pd).toMatchObject({ disaggregated_requests: res.completed_requests, local_requests: 0, transfers_initiated: 1000, transfers_completed: 1000 });
    expect(res.pd.pools).toEqual({ prefill: ['instance_0', 'instance_1'], decode: ['instance_2', 'instance_3'], shared: [], unassigned: [] });
    // The prefill pool ran every prompt; the decode pool finished every request it kept.
    const done = (ids: string[]) => res.instances.filter((b) => ids.includes(b.instance_id)).reduce((a, b) => a + b.completed_requests, 0);
    expect(done(res.pd.pools.prefill)).toBe(1000);
    expect(done(res.pd.pools.decode)).toBe(res.completed_requests);
    expect(r.stderr).toMatch(new RegExp(`${res.completed_requests}/1000 completed`));
  });
});
