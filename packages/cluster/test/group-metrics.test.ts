import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizeUsAsMs } from '@blis/engine/internal';
import { CompletionLog } from '../src/completion-log.js';
import { prepareSimulation, runPrepared } from '../src/index.js';
import { groupMetrics } from '../src/group-metrics.js';
import { meetsTargets, sloAttainment } from '../src/slo-attainment.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

interface Row {
  code: number;
  ttft: number;
  e2e: number;
  net: number;
  tokens: number;
  target: number;
}

const rowArb: fc.Arbitrary<Row> = fc.record({
  code: fc.nat(3),
  ttft: fc.integer({ min: 0, max: 2_000_000 }),
  e2e: fc.integer({ min: 0, max: 20_000_000 }),
  net: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50_000 })),
  tokens: fc.nat(2000),
  target: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })),
});
const targetsArb = fc.record({ sloTtftUs: fc.oneof(fc.constant(0), fc.nat(1_000_000)), sloE2eUs: fc.oneof(fc.constant(0), fc.nat(10_000_000)) });

function logOf(rows: readonly Row[]): CompletionLog {
  const log = new CompletionLog();
  for (const r of rows) {
    log.sloClass.push(r.code);
    log.ttftUs.push(r.ttft);
    log.e2eUs.push(r.e2e);
    log.networkDelayUs.push(r.net);
    log.outputTokens.push(r.tokens);
    log.sloTargetUs.push(r.target);
  }
  return log;
}

/** A group's metrics read row by row, as written before the columns' views were read directly. */
function referenceGroup(rows: readonly Row[], code: number, durationUs: number, opts: { sloTtftUs: number; sloE2eUs: number }) {
  const mine = rows.filter((r) => r.code === code);
  const ttft = Float64Array.from(mine, (r) => r.ttft + r.net);
  const e2e = Float64Array.from(mine, (r) => r.e2e + r.net);
  const verdicts = mine.map((r) => meetsTargets(r.ttft + r.net, r.e2e + r.net, r.target, opts)).filter((v) => v !== null);
  const tokens = mine.reduce((s, r) => s + r.tokens, 0);
  const td = summarizeUsAsMs(ttft);
  const ed = summarizeUsAsMs(e2e);
  return {
    completed_requests: mine.length,
    ttft_mean_ms: td.mean,
    ttft_p50_ms: td.p50,
    ttft_p90_ms: td.p90,
    ttft_p99_ms: td.p99,
    e2e_mean_ms: ed.mean,
    e2e_p50_ms: ed.p50,
    e2e_p90_ms: ed.p90,
    e2e_p99_ms: ed.p99,
    tokens_per_sec: durationUs > 0 ? tokens / (durationUs / 1e6) : 0,
    slo_attainment: verdicts.length === 0 ? null : verdicts.filter((v) => v).length / verdicts.length,
  };
}

describe('groupMetrics and sloAttainment over the log columns', () => {
  it('hand example: two groups, client-observed latencies, per-request targets', () => {
    const rows: Row[] = [
      { code: 0, ttft: 1000, e2e: 9000, net: 500, tokens: 10, target: 2000 },
      { code: 1, ttft: 4000, e2e: 5000, net: 0, tokens: 7, target: 0 },
      { code: 0, ttft: 3000, e2e: 6000, net: 0, tokens: 30, target: 2000 },
    ];
    const log = logOf(rows);
    const g = groupMetrics(log, log.sloClass, 0, 2_000_000, { sloTtftUs: 0, sloE2eUs: 0 });
    // TTFTs 1.5 and 3 ms; E2Es 9.5 and 6 ms; 40 tokens over 2 s; one of two under its 2 ms target.
    expect([g.completed_requests, g.ttft_mean_ms, g.ttft_p50_ms, g.e2e_mean_ms, g.tokens_per_sec, g.slo_attainment]).toEqual([2, 2.25, 2.25, 7.75, 20, 0.5]);
    const s = sloAttainment(log, { sloTtftUs: 5000, sloE2eUs: 0 }, 3, 2_000_000);
    // Row 2 has no target of its own: the run's 5 ms applies, and it meets it.
    expect(s).toEqual({ ttft: 2 / 3, e2e: null, overall: 2 / 3, goodput_rps: 1, requests_with_target: 3 });
  });

  // Logs of one group without network delays too: there the whole log's summaries stand in.
  const logArb = fc.oneof(
    fc.array(rowArb, { maxLength: 400 }),
    fc.array(rowArb.map((r) => ({ ...r, code: 0, net: 0 })), { maxLength: 400 }),
    fc.array(rowArb.map((r) => ({ ...r, code: 0 })), { maxLength: 400 }),
  );

  it('equal a row-by-row reading, for every group of random logs, given the whole log\'s summaries or not', () => {
    fc.assert(
      fc.property(logArb, targetsArb, fc.nat(10_000_000), (rows, opts, dur) => {
        const log = logOf(rows);
        const whole = { ttft: summarizeUsAsMs(log.ttftUs.view()), e2e: summarizeUsAsMs(log.e2eUs.view()) };
        for (let code = 0; code <= 4; code++) {
          const want = referenceGroup(rows, code, dur, opts);
          expect(groupMetrics(log, log.sloClass, code, dur, opts)).toEqual(want);
          expect(groupMetrics(log, log.sloClass, code, dur, opts, whole)).toEqual(want);
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe('per_slo_class and per_tenant of a run', () => {
  const client = (id: string, tenant: string, slo: string) => ({
    id,
    ...(tenant === '' ? {} : { tenant_id: tenant }),
    ...(slo === '' ? {} : { slo_class: slo }),
    rate_fraction: 0.5,
    input_distribution: { type: 'gaussian', params: { mean: 300, std_dev: 80, min: 16, max: 900 } },
    output_distribution: { type: 'exponential', params: { mean: 40, max: 200 } },
  });
  const runOf = (clients: object[]) => {
    const prepared = prepareSimulation({
      latencyModel: 'blackbox',
      numInstances: 2,
      totalKVBlocks: 400,
      sloTtftUs: 30_000,
      workload: { kind: 'spec', spec: { version: '2', seed: 9, aggregate_rate: 30, num_requests: 120, clients } },
    });
    const result = runPrepared(prepared);
    return { result, log: prepared.cluster.log, dur: prepared.cluster.endUs };
  };
  const opts = { sloTtftUs: 30_000, sloE2eUs: 0 };

  it('one class and one tenant: both blocks are the group of every completion', () => {
    const { result, log, dur } = runOf([client('a', '', ''), client('b', '', '')]);
    const all = groupMetrics(log, log.tenant, 0, dur, opts);
    expect(all.completed_requests).toBe(120);
    expect(result.per_tenant).toEqual({ default: all });
    // A spec client without a class is in the standard one.
    expect(result.per_slo_class).toEqual({ standard: all });
    expect(result.per_tenant.default).not.toBe(result.per_slo_class.standard);
  });

  it('two tenants in one class: each tenant its own group', () => {
    const { result, log, dur } = runOf([client('a', 't1', 'critical'), client('b', 't2', 'critical')]);
    expect(Object.keys(result.per_tenant)).toEqual(['t1', 't2']);
    expect(result.per_tenant.t1).toEqual(groupMetrics(log, log.tenant, 0, dur, opts));
    expect(result.per_tenant.t2).toEqual(groupMetrics(log, log.tenant, 1, dur, opts));
    expect(result.per_tenant.t1.completed_requests + result.per_tenant.t2.completed_requests).toBe(120);
    expect(result.per_slo_class.critical.completed_requests).toBe(120);
  });
});
