import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './blis-process.js';
import { runInProcess } from './bad-input/run-in-process.js';

// The example commands of BLIS HEAD's README (inference-sim f90a1e3a), run verbatim but for
// paths: `./blis` is our binary, and BLIS's `examples/<file>` is the copy we ship. They run in a
// fresh directory, in README order where one needs the files of another.
//
// Also run: the `--detectors` commands of BLIS's docs/contributing/saturation-analyzer-extension.md.
// Not run, because they need what a test cannot have:
// - `blis observe --server-url http://localhost:8000 ...` (three commands): a model server on a
//   fixed port (`packages/cli/test/observe-calibrate-e2e.test.ts` runs observe against serve-sim);
// - `blis calibrate ... --itl-data trace.itl.csv`: the ITL file of such an observe run.
// Not run, because what they need does not exist here yet:
// - `blis compose --from spec1.yaml --from spec2.yaml` (issue #39).
//
// Then the commands of BLIS HEAD's docs/ (getting-started, concepts, guide), each as written,
// run in this process (a process each would cost seconds of start-up). Not run: the observe
// commands (a model server), and the docs/plans and docs/blog pages (designs and posts, not usage).

const cwd = mkdtempSync(join(tmpdir(), 'blis-doc-commands-'));

/** BLIS's paths to ours. */
const PATHS: Record<string, string> = {
  'examples/multiturn-chat-demo.yaml': join(ROOT, 'examples', 'workloads', 'multiturn-chat-demo.yaml'),
  // "requires your own ServeGen data/": a sample of ServeGen's (fixtures/servegen/PROVENANCE.md).
  'data/': join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'servegen', 'language'),
  // The README's inference-perf spec: BLIS's example of one, which we ship.
  'spec.yaml': join(ROOT, 'examples', 'workloads', 'inference-perf-shared-prefix.yaml'),
  'examples/servegen-language.yaml': join(ROOT, 'examples', 'workloads', 'servegen-language.yaml'),
  // BLIS's v1 spec, its comments removed (packages/workload/test/fixtures/blis-head-generated/PROVENANCE.md).
  'examples/regression_workload_load_spikes.yaml': join(ROOT, 'packages', 'workload', 'test', 'fixtures', 'blis-head-generated', 'regression_workload_load_spikes.yaml'),
  // The README's compose example names no files: two of BLIS's examples stand in for them.
  'spec1.yaml': join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-head-compose', 'regression_workload_load_spikes.yaml'),
  'spec2.yaml': join(ROOT, 'examples', 'workloads', 'servegen-language.yaml'),
};

/** The README's `autoscaler-demo.yaml`, as it prints it (comments aside). */
const AUTOSCALER_DEMO = `autoscaler:
  interval_us: 10000000
  scale_up_stabilization_window_us: 0
  scale_down_stabilization_window_us: 300000000
  hpa_scrape_delay:
    mean: 15.0
    stddev: 2.0
  analyzer:
    scale_up_threshold: 0.8
    scale_down_boundary: 0.3
    avg_input_tokens: 512

node_pools:
  - name: standard
    gpu_type: H100
    gpus_per_node: 8
    gpu_memory_gib: 80
    initial_nodes: 1
    min_nodes: 1
    max_nodes: 8
    provisioning_delay:
      mean: 120.0
      stddev: 30.0
    cost_per_hour: 32.77

admission:
  policy: always-admit

routing:
  policy: weighted
  scorers:
    - name: queue-depth
      weight: 1.0
    - name: kv-utilization
      weight: 1.0
`;

/** A README command as written (continuation lines joined), split as a shell would. */
function argv(command: string): string[] {
  const line = command.replace(/\\\n/g, ' ').trim();
  const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
  // The pages write `./blis` (a checkout's build) or `blis` (installed).
  expect(['./blis', 'blis']).toContain(words[0]);
  return words.slice(1).map((w) => PATHS[w] ?? w);
}

function run(command: string) {
  const r = spawnSync(process.execPath, [BIN, ...argv(command)], { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  expect(r.status, `${command}\n${r.stderr}`).toBe(0);
  return r;
}

/** A simulation's result: every request it received accounted for, and something done. */
function simulated(stdout: string, requests?: number) {
  const res = JSON.parse(stdout);
  if (requests !== undefined) expect(res.injected_requests).toBe(requests);
  expect(res.completed_requests).toBeGreaterThan(0);
  expect(res.ttft_mean_ms).toBeGreaterThan(0);
  expect(res.completed_requests + res.still_queued + res.still_running + res.dropped_unservable + res.rejected_requests + res.timed_out_requests).toBe(res.injected_requests);
  return res;
}

describe("BLIS HEAD's README commands run here", () => {
  it.each([
    ['./blis run --model qwen/qwen3-14b', 100],
    ['./blis run --model qwen/qwen3-14b --workload-spec examples/servegen-language.yaml', undefined],
    ['./blis run --model qwen/qwen3-14b \\\n  --num-instances 4 --routing-policy weighted \\\n  --routing-scorers "precise-prefix-cache:2,queue-depth:1,kv-utilization:1" \\\n  --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --latency-model trained-physics ', 100],
    ['./blis run \\\n  --model qwen/qwen3-14b \\\n  --num-instances 4 --rate 100 --num-requests 1000', 1000],
    ['./blis run \\\n  --model qwen/qwen3-14b \\\n  --num-instances 4 \\\n  --prefill-instances 2 --decode-instances 2 \\\n  --pd-decider always \\\n  --pd-transfer-bandwidth 25 --pd-transfer-base-latency 0.05 \\\n  --rate 100 --num-requests 1000', 1000],
    ['./blis run \\\n  --model qwen/qwen3-14b \\\n  --num-instances 4 \\\n  --prefill-instances 2 --decode-instances 2 \\\n  --pd-decider prefix-threshold --pd-prefix-threshold 16 \\\n  --rate 100 --num-requests 1000', 1000],
    ['./blis run \\\n  --model qwen/qwen3-14b \\\n  --num-instances 4 \\\n  --prefill-instances 2 --decode-instances 2 \\\n  --hardware A100-80 --decode-hardware H100 \\\n  --pd-decider always \\\n  --rate 100 --num-requests 1000', 1000],
  ] as const)('%s', (command, requests) => {
    simulated(run(command).stdout, requests);
  });

  it("results.md's per-request example writes BLIS's metrics file", () => {
    run('./blis run --model qwen/qwen3-14b \\\n  --rate 100 --num-requests 500 --metrics-path metrics.json');
    const m = JSON.parse(readFileSync(join(cwd, 'metrics.json'), 'utf8'));
    expect(m.requests).toHaveLength(m.completed_requests);
  });

  it.each([
    ['./blis convert preset --name chatbot --rate 10 --num-requests 100', 'preset-chatbot.yaml'],
    ['./blis convert servegen --path data/', 'servegen-language.yaml'],
    ['./blis convert inference-perf --spec spec.yaml', 'ip-example.yaml'],
  ])("%s prints BLIS HEAD's spec", (command, expected) => {
    expect(run(command).stdout).toBe(readFileSync(join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-convert', expected), 'utf8'));
  });

  it('replay and calibrate on a trace the run exported (t.yaml + d.csv)', () => {
    // The README replays a recorded pair; BLIS's own `run --trace-output t` (CLAUDE.md) makes one.
    run('./blis run --model qwen/qwen3-14b --trace-output t');
    renameSync(join(cwd, 't.csv'), join(cwd, 'd.csv'));
    simulated(run('./blis replay --trace-header t.yaml --trace-data d.csv --model qwen/qwen3-14b').stdout, 100);
    simulated(run('./blis replay --trace-header t.yaml --trace-data d.csv --model qwen/qwen3-14b \\\n  --results-path results.json').stdout, 100);
    const cal = run('./blis calibrate --trace-header t.yaml --trace-data d.csv \\\n  --sim-results results.json --report calibration.json');
    expect(cal.stdout).toMatch(/^requests 100: 100 matched/);
    expect(existsSync(join(cwd, 'calibration.json'))).toBe(true);
  });

  it("the compose command prints BLIS's own merge of the two specs", () => {
    const r = run('./blis compose --from spec1.yaml --from spec2.yaml');
    expect(r.stdout).toBe(readFileSync(join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-head-compose', 'spikes+servegen.blis.yaml'), 'utf8'));
  });

  // docs/contributing/saturation-analyzer-extension.md's commands.
  it.each([
    ['./blis run --model qwen/qwen3-14b --detectors composite --saturation-report sat.json', ['composite']],
    ['./blis run --model qwen/qwen3-14b --detectors all --saturation-report sat.json', ['backlog-drift', 'composite', 'threshold']],
    ['./blis run --model qwen/qwen3-14b --detectors composite,threshold --saturation-report sat.json', ['composite', 'threshold']],
  ] as const)('%s', (command, detectors) => {
    const res = simulated(run(command).stdout, 100);
    expect(Object.keys(res.saturation)).toEqual(detectors);
    const report = JSON.parse(readFileSync(join(cwd, 'sat.json'), 'utf8'));
    expect(report.final).toEqual(res.saturation);
    expect(report.trace).toHaveLength(2 * res.completed_requests * detectors.length);
    // BLIS HEAD's own labels for `--detectors all` here (f90a1e3a, 2026-11-29; its report is byte-equal to ours).
    if (detectors.length === 3) expect(res.saturation).toEqual({ 'backlog-drift': 'OVERLOADED', composite: 'STABLE', threshold: 'OVERLOADED' });
  });

  it("the autoscaling commands, on the README's autoscaler-demo.yaml and BLIS's v1 load-spikes spec", () => {
    writeFileSync(join(cwd, 'autoscaler-demo.yaml'), AUTOSCALER_DEMO);
    const first = simulated(run('./blis run \\\n  --model qwen/qwen3-14b \\\n  --num-instances 1 \\\n  --policy-config autoscaler-demo.yaml \\\n  --workload-spec examples/regression_workload_load_spikes.yaml').stdout, 5000);
    // BLIS HEAD's own run of this command (f90a1e3a): 5,000 completed, TTFT mean 24,416.3467456 ms,
    // E2E mean 27,377.6880794 ms (its stdout, 2026-11-29).
    expect(first.completed_requests).toBe(5000);
    expect(first.ttft_mean_ms).toBe(24416.3467456);
    expect(first.e2e_mean_ms).toBe(27377.6880794);
    expect(first.autoscaling.scale_up_events).toBeGreaterThan(0);
    simulated(run('./blis run \\\n  --model qwen/qwen3-14b \\\n  --num-instances 1 \\\n  --policy-config autoscaler-demo.yaml \\\n  --model-autoscaler-interval-us 5000000 \\\n  --workload-spec examples/regression_workload_load_spikes.yaml').stdout, 5000);
  });
});

/** docs/guide/kv-cache.md's offload.yaml, comments removed. */
const OFFLOAD = `kv_offload:
  cpu_bytes_to_use: 17179869184
  block_size: 16
  eviction_policy: lru
  offload_prompt_only: true
  secondary_tiers:
    - type: fs
      root_dir: /mnt/kv-cache
      n_read_threads: 16
      n_write_threads: 16
      locality: LOCAL
      direct_io: true
      device_class: nvme_gen4
`;

/** A docs/ command in this process: its stdout, exit 0 required. */
async function runDoc(command: string): Promise<{ stdout: string; stderr: string }> {
  const r = await runInProcess(argv(command));
  expect(r.code, `${command}\n${r.stderr}`).toBe(0);
  return r;
}

describe("BLIS HEAD's docs/ commands run here", () => {
  // Files the pages show or assume, under the names they use.
  writeFileSync(join(cwd, 'offload.yaml'), OFFLOAD);
  mkdirSync(join(cwd, 'my-model-configs'), { recursive: true });
  const catalogue = (f: string) => JSON.parse(readFileSync(join(ROOT, 'packages', 'latency', 'src', 'data', f), 'utf8'));
  writeFileSync(join(cwd, 'my-model-configs', 'config.json'), JSON.stringify(catalogue('model-configs.json')['qwen3-14b']));
  writeFileSync(join(cwd, 'my-hardware-config.json'), JSON.stringify(catalogue('hardware.json')));
  PATHS['offload.yaml'] = join(cwd, 'offload.yaml');
  PATHS['./my-model-configs/'] = join(cwd, 'my-model-configs');
  PATHS['./my-hardware-config.json'] = join(cwd, 'my-hardware-config.json');

  it.each([
    // getting-started/
    ['./blis run --model qwen/qwen3-14b --num-requests 10', 10],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --routing-policy weighted --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --rate 100 --num-requests 500 --trace-level decisions --summarize-trace', 500],
    ['./blis run --model qwen/qwen3-14b --latency-model trained-physics --hardware H100 --tp 1 --num-instances 4 --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --latency-model roofline --hardware H100 --tp 1 --num-instances 4 --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --rate 2 --num-requests 50', 50],
    ['./blis run --model qwen/qwen3-14b --num-instances 8 --rate 200 --num-requests 1000 --routing-policy weighted --routing-scorers "prefix-affinity:5,queue-depth:1" --prefix-tokens 512', 1000],
    ['./blis run --model qwen/qwen3-14b --num-instances 12 --rate 200 --num-requests 1000 --routing-policy weighted --fitness-weights "p99_ttft:3,mean_e2e:1,throughput:2"', 1000],
    // concepts/
    ['./blis run --model qwen/qwen3-14b --latency-model roofline --hardware H100 --tp 1', 100],
    // guide/
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --rate 500 --num-requests 2000 --admission-policy token-bucket --token-bucket-capacity 10000 --token-bucket-refill-rate 1000', 2000],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --tp 2 --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --num-instances 2 --tp 4 --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --rate 100 --num-requests 500 --trace-level decisions --summarize-trace --counterfactual-k 3', 500],
    ['./blis run --model qwen/qwen3-14b --rate 100 --num-requests 500 --long-prefill-token-threshold 256', 500],
    ['./blis run --model qwen/qwen3-14b --num-instances 8 --rate 20 --num-requests 200 --routing-policy weighted --seed 42', 200],
    ['./blis run --model qwen/qwen3-14b --total-kv-blocks 5000 --rate 50 --num-requests 200', 200],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --routing-policy weighted --prefix-tokens 512 --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --kv-cpu-blocks 50000 --kv-offload-threshold 0.9 --kv-transfer-bandwidth 100.0 --rate 100 --num-requests 500', 500],
    ['./blis run --model qwen/qwen3-14b --kv-offload-config offload.yaml', 100],
    ['./blis run --model meta-llama/llama-3.1-8b-instruct --latency-model roofline --hardware H100 --tp 1', 100],
    ['./blis run --model my-custom-model \\\n  --model-config-folder ./my-model-configs/ \\\n  --hardware-config ./my-hardware-config.json \\\n  --hardware H100 --tp 4', 100],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --rate 100 --num-requests 500 --routing-policy weighted --trace-level decisions --summarize-trace', 500],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --rate 100 --num-requests 500 --scheduler priority-fcfs', 500],
    ['./blis run --model qwen/qwen3-14b --num-instances 4 --workload-spec examples/multiturn-chat-demo.yaml', undefined],
  ] as const)('%s', async (command, requests) => {
    simulated((await runDoc(command)).stdout, requests);
  });

  it("routing.md's vllm-dp commands: the scorer, ignored with BLIS's warning beside the default round-robin", async () => {
    for (const interval of ['0', '100000']) {
      const r = await runDoc(`./blis run --model qwen/qwen3-14b --routing-scorers "vllm-dp:1" \\\n  --snapshot-refresh-interval ${interval}`);
      simulated(r.stdout, 100);
      expect(r.stderr).toContain('blis: warning: --routing-scorers has no effect with routing policy "round-robin"');
    }
  });

  it("kv-offload-calibration.md's replay and calibrate, on an observed trace (mode real)", async () => {
    // The page's trace comes from `blis observe`; a run's export marked `mode: real` stands in for it.
    await runDoc(`./blis run --model qwen/qwen3-14b --trace-output ${join(cwd, 'obs')}`);
    writeFileSync(join(cwd, 't.yaml'), readFileSync(join(cwd, 'obs.yaml'), 'utf8').replace('mode: generated', 'mode: real'));
    renameSync(join(cwd, 'obs.csv'), join(cwd, 't.csv'));
    for (const f of ['t.yaml', 't.csv', 'sim.json', 'simagg.json', 'calibration.json']) PATHS[f] = join(cwd, f);
    // The page's placeholder, for the model the trace was made with.
    PATHS['<model>'] = 'qwen/qwen3-14b';
    simulated((await runDoc('blis replay --trace-header t.yaml --trace-data t.csv --model <model> --kv-offload-config offload.yaml --results-path sim.json --metrics-path simagg.json')).stdout, 100);
    await runDoc('blis calibrate --trace-header t.yaml --trace-data t.csv --sim-results sim.json --sim-metrics simagg.json --hit-rate-tolerance-pp 5 --ttft-mape-threshold 0.15 --report calibration.json');
    expect(existsSync(join(cwd, 'calibration.json'))).toBe(true);
  });
});
