import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';
import { HEAD_FIXTURE_DIR } from './parity-compare.js';

// BLIS's output files through the process: `--metrics-path` (BLIS's MetricsOutput, which
// `blis calibrate --sim-metrics` reads) and `--trace-output` (the run's workload as TraceV2, which
// `blis replay` reproduces request for request).

const dir = mkdtempSync(join(tmpdir(), 'blis-output-files-'));
const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '30', '--rate', '20', '--num-instances', '2', '--quiet'];

// The keys, in order, of the file BLIS HEAD (f90a1e3a) writes for `blis run --model
// meta-llama/llama-3.1-8b-instruct --num-requests 3 --rate 10 --metrics-path m.json`
// (its kv_allocation_failures is omitted when 0; slo_class and tenant_id when empty).
const BLIS_KEYS = [
  'instance_id', 'completed_requests', 'still_queued', 'still_running', 'injected_requests', 'total_input_tokens', 'total_output_tokens',
  'vllm_estimated_duration_s', 'responses_per_sec', 'tokens_per_sec', 'e2e_mean_ms', 'e2e_p90_ms', 'e2e_p95_ms', 'e2e_p99_ms',
  'ttft_mean_ms', 'ttft_p90_ms', 'ttft_p95_ms', 'ttft_p99_ms', 'itl_mean_ms', 'itl_p90_ms', 'itl_p95_ms', 'itl_p99_ms',
  'scheduling_delay_p99_ms', 'preemption_count', 'cache_hit_rate', 'dropped_unservable', 'length_capped_requests', 'timed_out_requests', 'requests',
];
const BLIS_REQUEST_KEYS = ['arrived_at', 'requestID', 'num_prefill_tokens', 'num_decode_tokens', 'ttft_ms', 'itl_ms', 'e2e_ms', 'scheduling_delay_ms'];

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('blis run --metrics-path and --trace-output', () => {
  const metrics = join(dir, 'm.json');
  const results = join(dir, 'r.json');
  const prefix = join(dir, 'w');
  let stdout = '';

  it("writes BLIS's MetricsOutput: its fields in its order, the run's values, a record per request", async () => {
    const r = await blis([...RUN, '--metrics-path', metrics, '--trace-output', prefix, '--results-path', results]);
    expect(r.code, r.stderr).toBe(0);
    stdout = r.stdout;
    const plain = await blis(RUN);
    // Neither file changes what the run prints.
    expect(plain.stdout).toBe(r.stdout);
    const m = json(metrics);
    const res = JSON.parse(r.stdout);
    expect(Object.keys(m)).toEqual(BLIS_KEYS);
    for (const k of BLIS_KEYS.filter((k) => k !== 'requests' && k !== 'cache_hit_rate' && k !== 'instance_id')) expect(m[k], k).toBe(res[k]);
    // BLIS's cluster hit rate: the unweighted mean of the instances' rates.
    expect(m.cache_hit_rate).toBe((res.instances[0].cache_hit_rate + res.instances[1].cache_hit_rate) / 2);
    const records = json(results).requests as { request_id: string; arrival_ms: number; ttft_ms: number; handled_by: string }[];
    expect(m.requests).toHaveLength(30);
    for (const q of m.requests) {
      expect(Object.keys(q).slice(0, BLIS_REQUEST_KEYS.length)).toEqual(BLIS_REQUEST_KEYS);
      const ours = records.find((x) => `request_${x.request_id}` === q.requestID)!;
      // BLIS's µs / 1e6 (ms / 1000 can differ in the last bit).
      expect(q.arrived_at).toBe(Math.round(ours.arrival_ms * 1000) / 1e6);
      expect(q.ttft_ms).toBe(ours.ttft_ms);
      expect(q.handled_by).toBe(ours.handled_by);
    }
    const arrivals = m.requests.map((q: { arrived_at: number }) => q.arrived_at);
    expect(arrivals).toEqual([...arrivals].sort((a, b) => a - b));
  });

  it("writes the run's workload as a TraceV2 pair that replays to the same requests (BLIS's INV-13)", async () => {
    expect(readFileSync(`${prefix}.yaml`, 'utf8')).toBe('trace_version: 3\ntime_unit: microseconds\nmode: generated\nwarm_up_requests: 0\nworkload_seed: 42\n');
    const rows = readFileSync(`${prefix}.csv`, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(30);
    const m = json(metrics);
    rows.forEach((c, i) => {
      const q = m.requests[i];
      expect(c[0]).toBe(String(i));
      expect(Number(c[19])).toBe(Math.round(q.arrived_at * 1e6));
      // first chunk = arrival + TTFT; last = first + the inter-token gaps.
      expect(Number(c[21])).toBe(Number(c[19]) + Math.round(q.ttft_ms * 1000));
      expect(Number(c[22])).toBe(Number(c[19]) + Math.round((q.ttft_ms + q.itl_ms * (q.num_decode_tokens - 1)) * 1000));
      expect(c[24]).toBe('ok');
    });
    const replayMetrics = join(dir, 'm2.json');
    const rp = await blis(['replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--trace-header', `${prefix}.yaml`, '--trace-data', `${prefix}.csv`, '--num-instances', '2', '--quiet', '--metrics-path', replayMetrics]);
    expect(rp.code, rp.stderr).toBe(0);
    const again = json(replayMetrics);
    const fate = (x: { requests: { arrived_at: number; ttft_ms: number; e2e_ms: number; handled_by: string }[] }) => x.requests.map((q) => [q.arrived_at, q.ttft_ms, q.e2e_ms, q.handled_by]);
    expect(fate(again)).toEqual(fate(m));
    expect(JSON.parse(rp.stdout).ttft_p99_ms).toBe(JSON.parse(stdout).ttft_p99_ms);
  });

  it("a session workload's records carry BLIS's session_id and round_index", async () => {
    const m = join(dir, 'sessions.json');
    const spec = join(import.meta.dirname, '..', '..', '..', 'examples', 'workloads', 'multiturn-chat-demo.yaml');
    const r = await blis(['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', spec, '--quiet', '--metrics-path', m]);
    expect(r.code, r.stderr).toBe(0);
    const requests = json(m).requests as { session_id?: string; round_index: number }[];
    // The demo: 100 sessions of 5 rounds each (rounds 0 to 4).
    expect(requests).toHaveLength(500);
    expect(new Set(requests.map((q) => q.session_id)).size).toBe(100);
    for (let round = 0; round < 5; round++) expect(requests.filter((q) => q.round_index === round)).toHaveLength(100);
  });

  it('blis calibrate --sim-metrics reads the file as the simulated KV hit rate', async () => {
    const header = join(dir, 'h.yaml');
    writeFileSync(header, 'trace_version: 3\ntime_unit: us\nmode: real\nwarm_up_requests: 0\nobserved_kv_metrics:\n  source: tiered\n  hit_rate: 0.25\n');
    const report = join(dir, 'cal.json');
    const r = await blis(['calibrate', '--trace-header', header, '--trace-data', `${prefix}.csv`, '--sim-results', results, '--sim-metrics', metrics, '--report', report]);
    expect(r.code, r.stderr).toBe(0);
    expect(json(report).hit_rate).toMatchObject({ real_hit_rate: 0.25, sim_hit_rate: json(metrics).cache_hit_rate });
  });

  it('replay writes its export with mode replayed', async () => {
    const again = join(dir, 'w2');
    const rp = await blis(['replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--trace-header', `${prefix}.yaml`, '--trace-data', `${prefix}.csv`, '--quiet', '--trace-output', again]);
    expect(rp.code, rp.stderr).toBe(0);
    expect(readFileSync(`${again}.yaml`, 'utf8')).toBe('trace_version: 3\ntime_unit: microseconds\nmode: replayed\nwarm_up_requests: 0\n');
    expect(readFileSync(`${again}.csv`, 'utf8').trim().split('\n')).toHaveLength(31);
  });

  it.each([
    [['--metrics-path', join(dir, 'missing', 'm.json')], /^blis: --metrics-path \S+: expected a writable file, found ENOENT/m],
    [['--trace-output', join(dir, 'missing', 'w')], /^blis: --trace-output \S+\.yaml: expected a writable file, found ENOENT/m],
  ])('refuses %j before the run, exit 2, nothing on stdout', async (flags, message) => {
    const r = await blis([...RUN, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

// BLIS HEAD's own files for BLIS's P/D demo baseline (fixtures/blis-head-parity/PROVENANCE.md):
// a flag-driven workload names no SLO class, so neither file gives its requests one, and a
// request's text_tokens is 0 outside a multimodal prompt.
describe("BLIS HEAD's output files, byte for byte", () => {
  const fixture = (name: string) => readFileSync(join(HEAD_FIXTURE_DIR, 'flags-tp', name));
  it('blis run --model qwen/qwen3-14b --num-instances 4 --rate 100 --num-requests 1000 --metrics-path --trace-output', async () => {
    const m = join(dir, 'pd-baseline.json');
    const w = join(dir, 'pd-baseline');
    const r = await blis(['run', '--model', 'qwen/qwen3-14b', '--num-instances', '4', '--rate', '100', '--num-requests', '1000', '--metrics-path', m, '--trace-output', w]);
    expect(r.code, r.stderr).toBe(0);
    const ours = readFileSync(m, 'utf8');
    const theirs = gunzipSync(fixture('metrics.json.gz')).toString('utf8');
    // Parsed first, so that a difference shows as the record and key that differ.
    expect(JSON.parse(ours)).toEqual(JSON.parse(theirs));
    expect(ours).toBe(theirs);
    expect(readFileSync(`${w}.yaml`, 'utf8')).toBe(fixture('trace-output.yaml').toString('utf8'));
    expect(readFileSync(`${w}.csv`, 'utf8')).toBe(gunzipSync(fixture('trace-output.csv.gz')).toString('utf8'));
  });
});

// The held-out references' command line (fixtures/blis-head-parity/PROVENANCE.md): BLIS wrote
// their requests.csv from its --metrics-path file, so each record's arrived_at (µs / 1e6 in
// BLIS, not ms / 1000) and times must read back as the same numbers.
describe("the held-out references' replay writes BLIS's records", () => {
  it('replay ... --latency-model roofline --num-instances 4 --metrics-path: every record as BLIS HEAD wrote it', async () => {
    const trace = join(HEAD_FIXTURE_DIR, '..', 'blis-parity', 'azurecode2k');
    const m = join(dir, 'azure-4rr.json');
    const r = await blis([
      'replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--hardware', 'H100', '--tp', '1', '--total-kv-blocks', '7463', '--block-size-in-tokens', '16',
      '--max-num-seqs', '256', '--max-num-batched-tokens', '2048', '--routing-policy', 'round-robin', '--seed', '42', '--num-instances', '4', '--latency-model', 'roofline',
      '--trace-header', `${trace}.yaml`, '--trace-data', `${trace}.csv`, '--metrics-path', m, '--quiet',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = readFileSync(join(HEAD_FIXTURE_DIR, 'roofline-4rr', 'requests.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const byId = new Map((json(m).requests as Record<string, unknown>[]).map((q) => [q.requestID, q]));
    expect(byId.size).toBe(rows.length);
    for (const [id, arrival, input, output, handledBy, ttft, itl, e2e, sched] of rows)
      expect(byId.get(`request_${id}`), id).toEqual({
        arrived_at: Number(arrival), requestID: `request_${id}`, num_prefill_tokens: Number(input), num_decode_tokens: Number(output),
        ttft_ms: Number(ttft), itl_ms: Number(itl), e2e_ms: Number(e2e), scheduling_delay_ms: Number(sched), handled_by: handledBy, round_index: 0,
      });
  });
});
