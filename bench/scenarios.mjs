// The named benchmark scenarios. Each is one SimulationConfig (for the in-process run through
// `simulate()`) and the equivalent `blis` argument list (for the CLI-process run), kept side by
// side so the two measurements are of the same simulation.

const MODEL = 'meta-llama/llama-3.1-8b-instruct';
const DEFAULT_SCORERS = 'prefix-affinity:3,queue-depth:2,kv-utilization:2';

// The scenarios name the settings whose defaults moved to BLIS HEAD's (latency model, signal
// staleness, request timeout), so their figures stay comparable across the history below;
// `--latency-model trained-physics` variants measure the new default backend.
const PINNED_CONFIG = { latencyModel: 'blackbox', snapshotRefreshIntervalUs: 0, cacheSignalDelayUs: 0 };
const PINNED_ARGS = ['--snapshot-refresh-interval', '0', '--cache-signal-delay', '0'];

const here = new URL('.', import.meta.url);
const tracePath = (name) => new URL(`traces/${name}`, here).pathname;

function parseScorers(list) {
  return list.split(',').map((item) => {
    const [name, weight] = item.split(':');
    return { name, weight: Number(weight) };
  });
}

/** A synthetic `blis run` workload: BLIS's flag defaults except count, rate and instances. */
function synthetic({ name, requests, instances, rate, routing, scorers, trace, latency = 'blackbox', cpuBlocks, pd, autoscale, timeseriesMs, pinned = true, signals, quick = false, note }) {
  // Unpinned: BLIS HEAD's defaults (trained-physics, 50 ms signal staleness, 300 s timeout), as a
  // user gets them; `signals` then sets the snapshot refresh and cache-signal delay, in µs.
  const config = {
    model: MODEL,
    seed: 42,
    numInstances: instances,
    ...(pinned ? PINNED_CONFIG : {}),
    ...(signals !== undefined ? { snapshotRefreshIntervalUs: signals, cacheSignalDelayUs: signals } : {}),
    latencyModel: latency,
    workload: { kind: 'synthetic', numRequests: requests, rate, ...(pinned ? { timeoutUs: 0 } : {}) },
  };
  const args = ['run', '--model', MODEL, '--seed', '42', '--num-instances', String(instances), '--num-requests', String(requests), '--rate', String(rate), ...(pinned ? PINNED_ARGS : []), '--latency-model', latency, ...(pinned ? ['--timeout', '-1'] : [])];
  if (signals !== undefined) args.push('--snapshot-refresh-interval', String(signals), '--cache-signal-delay', String(signals));
  if (routing !== undefined) {
    config.routing = { policy: routing, params: {} };
    args.push('--routing-policy', routing);
    if (scorers !== undefined) {
      config.routing.scorers = parseScorers(scorers);
      args.push('--routing-scorers', scorers);
    }
  }
  if (cpuBlocks !== undefined) {
    config.kvCpuBlocks = cpuBlocks;
    args.push('--kv-cpu-blocks', String(cpuBlocks));
  }
  if (pd !== undefined) {
    config.pd = { prefillInstances: pd.prefill, decodeInstances: pd.decode, decider: pd.decider };
    args.push('--prefill-instances', String(pd.prefill), '--decode-instances', String(pd.decode), '--pd-decider', pd.decider);
  }
  if (timeseriesMs !== undefined) {
    config.timeseriesIntervalUs = timeseriesMs * 1000;
    args.push('--timeseries-interval', String(timeseriesMs));
  }
  if (autoscale !== undefined) {
    config.autoscaling = { intervalUs: autoscale.intervalUs, maxReplicas: autoscale.max };
    config.lifecycle = { loadingDelay: { meanUs: autoscale.loadingUs } };
    args.push('--model-autoscaler-interval-us', String(autoscale.intervalUs), '--autoscaler-max', String(autoscale.max), '--loading-delay', `${autoscale.loadingUs}us`);
  }
  if (trace !== undefined) {
    config.trace = { level: trace };
    args.push('--trace-level', trace);
  }
  return { name, requests, instances, quick, note, config, args };
}

function replay({ name, file, requests, instances, routing, scorers, note }) {
  const config = {
    model: MODEL,
    seed: 42,
    numInstances: instances,
    ...PINNED_CONFIG,
    workload: { kind: 'trace', path: tracePath(file) },
    routing: { policy: routing, params: {}, ...(scorers ? { scorers: parseScorers(scorers) } : {}) },
  };
  const args = ['replay', '--trace', tracePath(file), '--model', MODEL, '--seed', '42', '--num-instances', String(instances), '--routing-policy', routing, ...PINNED_ARGS, '--latency-model', 'blackbox'];
  if (scorers) args.push('--routing-scorers', scorers);
  return { name, requests, instances, quick: false, note, config, args };
}

export const SCENARIOS = [
  synthetic({ name: '1k-1', requests: 1_000, instances: 1, rate: 1, quick: true, note: 'BLIS flag defaults (rate 1 req/s)' }),
  synthetic({ name: '10k-4', requests: 10_000, instances: 4, rate: 40, routing: 'weighted', scorers: DEFAULT_SCORERS, quick: true, note: 'weighted routing, default scorers' }),
  synthetic({ name: '10k-4-decisions', requests: 10_000, instances: 4, rate: 40, routing: 'weighted', scorers: DEFAULT_SCORERS, trace: 'decisions', note: '10k-4 with decision tracing (cost of --trace-level decisions)' }),
  synthetic({ name: '10k-4-physics', requests: 10_000, instances: 4, rate: 40, routing: 'weighted', scorers: DEFAULT_SCORERS, latency: 'trained-physics', note: '10k-4 with the trained-physics latency model (BLIS HEAD\'s default)' }),
  synthetic({ name: '100k-4', requests: 100_000, instances: 4, rate: 40, routing: 'weighted', scorers: DEFAULT_SCORERS, note: '10k-4 ten times longer: scaling at equal instances and load' }),
  synthetic({ name: '100k-16', requests: 100_000, instances: 16, rate: 160, routing: 'weighted', scorers: DEFAULT_SCORERS, note: 'weighted routing, default scorers' }),
  synthetic({ name: '100k-16-default', requests: 100_000, instances: 16, rate: 160, routing: 'weighted', latency: 'trained-physics', pinned: false, note: '100k-16 on BLIS HEAD\'s defaults: trained-physics, default scorers, 50 ms snapshot refresh and cache-signal delay, 300 s timeout' }),
  synthetic({ name: '100k-16-default-live', requests: 100_000, instances: 16, rate: 160, routing: 'weighted', latency: 'trained-physics', pinned: false, signals: 0, note: '100k-16-default with live signals (--snapshot-refresh-interval 0 --cache-signal-delay 0): what the delayed signals cost' }),
  synthetic({ name: '100k-8p8d', requests: 100_000, instances: 16, rate: 160, routing: 'weighted', scorers: DEFAULT_SCORERS, pd: { prefill: 8, decode: 8, decider: 'always' }, note: '100k-16 as 8 prefill + 8 decode instances, every request disaggregated (--pd-decider always)' }),
  synthetic({ name: '100k-autoscale', requests: 100_000, instances: 4, rate: 160, routing: 'weighted', scorers: DEFAULT_SCORERS, autoscale: { intervalUs: 10_000_000, max: 16, loadingUs: 30_000_000 }, note: '100k-16\'s load on 4 instances that wva-saturation grows up to 16 (10 s interval, 30 s loading)' }),
  synthetic({ name: '100k-16-timeseries', requests: 100_000, instances: 16, rate: 160, routing: 'weighted', scorers: DEFAULT_SCORERS, timeseriesMs: 1000, note: '100k-16 with a time series sampled every simulated second (--timeseries-interval 1000)' }),
  synthetic({ name: '100k-16-cpu-tier', requests: 100_000, instances: 16, rate: 160, routing: 'weighted', scorers: DEFAULT_SCORERS, cpuBlocks: 32_768, note: '100k-16 with a CPU KV tier of 32,768 blocks (64 GiB at Llama-3.1-8B\'s 2 MiB per block)' }),
  replay({ name: 'mooncake-8', file: 'synthetic_trace.jsonl', requests: 3_993, instances: 8, routing: 'weighted', scorers: 'prefix-affinity:1', note: 'whole Mooncake synthetic trace, prefix-affinity routing' }),
  replay({ name: 'azure-code-8', file: 'AzureLLMInferenceTrace_code.csv', requests: 8_819, instances: 8, routing: 'round-robin', note: 'whole Azure code trace' }),
  synthetic({ name: '1m-32', requests: 1_000_000, instances: 32, rate: 320, routing: 'weighted', scorers: DEFAULT_SCORERS, note: 'scale: 1M requests' }),
];

/** Repetitions per scenario (after one warm-up run); the big ones are expensive enough to be stable. */
export function repetitionsFor(scenario) {
  if (scenario.requests >= 1_000_000) return { warmup: 0, runs: 1 };
  if (scenario.requests >= 100_000) return { warmup: 1, runs: 3 };
  return { warmup: 1, runs: 5 };
}
