import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// `blis replay --metrics-path` with flow control, against BLIS HEAD's own file for the same run
// (fixtures/blis-flow-control/README.md): every per-request record, gateway delay included, and
// the aggregate but for what BLIS counts otherwise (docs/flow-control.md).

const DIR = join(import.meta.dirname, 'fixtures', 'blis-flow-control');
const tmp = mkdtempSync(join(tmpdir(), 'blis-fc-metrics-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const COMMON = [
  'replay', '--trace-header', join(DIR, 'flow1500.yaml'), '--trace-data', join(DIR, 'flow1500.csv'),
  '--model', 'meta-llama/llama-3.1-8b-instruct', '--hardware', 'H100', '--tp', '1', '--total-kv-blocks', '7463',
  '--block-size-in-tokens', '16', '--max-num-seqs', '256', '--max-num-batched-tokens', '2048', '--long-prefill-token-threshold', '0',
  '--num-instances', '2', '--routing-policy', 'round-robin', '--seed', '42', '--horizon', '60000000', '--flow-control', '--quiet',
];

const RUNS: { name: string; flags: string[]; skip: string[] }[] = [
  { name: 'util-ttl-shed', flags: ['--saturation-detector', 'utilization', '--request-ttl', '1500000', '--max-gateway-queue-depth', '120', '--queue-shedding'], skip: [] },
  {
    name: 'conc-evict',
    flags: ['--saturation-detector', 'concurrency', '--max-concurrency', '24', '--in-flight-eviction', '--dispatch-tick-interval', '5000'],
    // BLIS's latency distributions include evicted requests' tokens; ours are of completed requests.
    skip: ['ttft_mean_ms', 'ttft_p90_ms', 'ttft_p95_ms', 'ttft_p99_ms', 'itl_mean_ms', 'itl_p90_ms', 'itl_p95_ms', 'scheduling_delay_p99_ms'],
  },
];

describe('flow control in --metrics-path: BLIS HEAD\'s own file', () => {
  for (const run of RUNS) {
    it(run.name, async () => {
      const out = join(tmp, `${run.name}.json`);
      const r = await blis([...COMMON, ...run.flags, '--metrics-path', out]);
      expect(r.code, r.stderr).toBe(0);
      const ours = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown> & { requests: unknown[] };
      const ref = JSON.parse(readFileSync(join(DIR, run.name, 'metrics.json'), 'utf8')) as Record<string, unknown> & { requests: unknown[] };
      expect(ours.requests).toEqual(ref.requests);
      for (const k of Object.keys(ref)) if (k !== 'requests' && !run.skip.includes(k)) expect(ours[k], k).toEqual(ref[k]);
    }, 60_000);
  }
});
