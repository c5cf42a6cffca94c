// Apart from the command body, so that building the program (and --help) loads no calibrate code.
/** The flags of `blis calibrate`, as commander hands them over (camelCase, text values). */
export const CALIBRATE_OPTIONS = [
  { flags: '--trace-header <file>', description: 'TraceV2 header YAML recorded by `blis observe` (required)' },
  { flags: '--trace-data <file>', description: 'TraceV2 data CSV recorded by `blis observe` (required)' },
  { flags: '--sim-results <file>', description: 'per-request simulator results: `blis replay --results-path` (ours or BLIS\'s array) (required)' },
  { flags: '--report <file>', description: 'write the calibration report JSON here (required)' },
  { flags: '--html <file>', description: 'also write the calibration as a self-contained HTML page (real against simulated latency, grades)' },
  { flags: '--warmup-requests <value>', description: 'skip requests with a smaller id; -1 = the header\'s warm_up_requests (default: -1)' },
  { flags: '--network-rtt-us <value>', description: 'RTT in µs added to simulated TTFT and E2E; -1 = the header\'s network.measured_rtt_ms × 1000 (default: -1)' },
  { flags: '--network-bandwidth-mbps <value>', description: 'add prompt upload and answer download time at 4 bytes a token; 0 = none (default: 0)' },
  { flags: '--itl-data <file>', description: 'chunk timings (`blis observe --record-itl`): grade ITL too' },
  { flags: '--sim-metrics <file>', description: 'simulator metrics JSON with cache_hit_rate (`blis replay --metrics-path` file, as BLIS writes it; or its stdout or --results-path file): compare the KV hit rate' },
  { flags: '--hit-rate-tolerance-pp <value>', description: 'KV hit-rate band in percentage points (default: 5)' },
  { flags: '--ttft-mape-threshold <value>', description: 'TTFT MAPE threshold, a fraction, for the tolerance verdict (default: 0.15)' },
  { flags: '--slo-ttft <list>', description: 'per-class TTFT goodput targets, e.g. critical=100ms,standard=500ms (over the header\'s)' },
  { flags: '--slo-itl <list>', description: 'per-class mean-ITL goodput targets, e.g. critical=20ms (needs --itl-data)' },
  { flags: '--slo-e2e <list>', description: 'per-class E2E goodput targets, e.g. critical=5s,standard=30s' },
  { flags: '--adapter-reference <file>', description: 'LoRA digital-twin reference JSON (model, adapter_aware and adapter_blind mean ttft ms and output_throughput): compare --sim-metrics\'s aggregate with it instead of grading a trace (no --trace-header, --trace-data, --sim-results)' },
  { flags: '--sim-metrics-blind <file>', description: 'with --adapter-reference: metrics JSON of the same run without adapters; adds the aware ÷ blind (delta-normalized) error' },
  { flags: '--adapter-mape-threshold <value>', description: 'with --adapter-reference: the MAPE bound, a fraction > 0 (default: 0.2)' },
  { flags: '--fail-on-tolerance', description: 'exit with code 1 when the TTFT MAPE or the KV hit rate is outside its tolerance (with --adapter-reference: when a metric exceeds --adapter-mape-threshold)' },
] as const;
