import { MOE_COMM_BACKENDS } from '@blis/latency/internal';
import { ThinkTimeDistError, parseThinkTimeDist } from '@blis/workload/internal';
import * as z from 'zod';
import { KVOffloadSchema, expectedFound, offloadBlockSizeIssue } from './kv-offload-schema.js';
import { PdConfigSchema, pdTopologyIssues } from './pd/pd-schema.js';
import { ScorerWeightSchema } from './scorer-weight-schema.js';
import { LoraSchema } from './lora/lora-schema.js';
import { AutoscalingSchema, LifecycleSchema, NodePoolsSchema } from './autoscale/autoscale-schema.js';
import { SaturationAnalysisSchema } from './saturation-analysis/saturation-analysis-schema.js';
import { moeParallelismIssues } from './moe-parallelism-issues.js';
import { FlowControlSchema } from './flow-control/flow-control-schema.js';

export { FlowControlSchema };

const nonNegInt = z.number().int().nonnegative();

/** What is wrong with a think-time distribution text, if anything. */
function thinkTimeDistIssue(text: string): string | undefined {
  try {
    parseThinkTimeDist(text);
    return undefined;
  } catch (e) {
    if (e instanceof ThinkTimeDistError) return e.message;
    throw e;
  }
}
const posInt = z.number().int().positive();

const policyRef = <D extends string>(defaultName: D) =>
  z
    .object({
      policy: z.string().min(1).default(defaultName),
      params: z.record(z.string(), z.unknown()).default({}),
    })
    .strict()
    .default({ policy: defaultName, params: {} });

export { ScorerWeightSchema };

/** Flags-style synthetic workload (`blis run --rate ...`), BLIS's names and defaults. */
export const SyntheticWorkloadSchema = z
  .object({
    kind: z.literal('synthetic'),
    preset: z.string().optional(),
    rate: z.number().positive().default(1),
    numRequests: posInt.default(100),
    // Lengths left unset come from the preset, else BLIS's defaults (512 ± 256 in [2, 7000], no
    // prefix), filled in by @blis/workload's specFromFlags: a default here would mask the preset.
    promptTokens: posInt.optional(),
    promptTokensStdev: z.number().nonnegative().optional(),
    promptTokensMin: posInt.optional(),
    promptTokensMax: posInt.optional(),
    outputTokens: posInt.optional(),
    outputTokensStdev: z.number().nonnegative().optional(),
    outputTokensMin: posInt.optional(),
    outputTokensMax: posInt.optional(),
    prefixTokens: nonNegInt.optional(),
    arrivalProcess: z.enum(['poisson', 'constant']).default('constant'),
    /** Per-request deadline after arrival, µs; 0 = none. BLIS's `blis run` default: 300 s. */
    timeoutUs: nonNegInt.default(300_000_000),
  })
  .strict();

export const SpecWorkloadSchema = z
  .object({
    kind: z.literal('spec'),
    /** Path to a WorkloadSpec v2 YAML file. */
    path: z.string().optional(),
    /** An already-parsed spec object (library use); validated like the file. */
    spec: z.unknown().optional(),
    /** Overrides the spec's num_requests. */
    numRequests: posInt.optional(),
    /** Overrides the spec's seed (as an explicit `--seed` does in BLIS). */
    seed: z.number().int().optional(),
    /** Overrides every client's `timeout`, µs (0 = no deadline), as an explicit `--timeout` does in BLIS. */
    timeoutUs: nonNegInt.optional(),
  })
  .strict()
  .refine((w) => w.path !== undefined || w.spec !== undefined, { message: 'a spec workload needs `path` or `spec`' });

export const TraceWorkloadSchema = z
  .object({
    kind: z.literal('trace'),
    /** The trace file; for a TraceV2 pair with `dataPath`, its header YAML. */
    path: z.string().min(1),
    /** TraceV2 data CSV when it is not named after the header (BLIS's `--trace-data`). */
    dataPath: z.string().min(1).optional(),
    format: z.enum(['tracev2', 'mooncake', 'azure']).optional(),
    timeScale: z.number().positive().default(1),
    maxRequests: posInt.optional(),
    /**
     * `fixed`: every row arrives at its recorded time. `closed-loop` (TraceV2 only): a session's
     * next round is sent when the previous one completes, after a think time (BLIS's
     * `--session-mode`).
     */
    sessionMode: z.enum(['fixed', 'closed-loop']).default('fixed'),
    /** closed-loop: every session's think time, µs (BLIS's `--think-time-ms` × 1000); unset: the trace's. */
    thinkTimeUs: nonNegInt.optional(),
    /** closed-loop: think times drawn from `constant:value=500ms` or `lognormal:mu=..,sigma=..[,min=..][,max=..]` (BLIS's `--think-time-dist`). */
    thinkTimeDist: z.string().optional(),
  })
  .strict()
  .superRefine((w, ctx) => {
    for (const key of ['thinkTimeUs', 'thinkTimeDist'] as const)
      if (w[key] !== undefined && w.sessionMode !== 'closed-loop') ctx.addIssue({ code: 'custom', path: [key], message: `sessionMode closed-loop for a think time, found ${w.sessionMode}` });
    if (w.thinkTimeUs !== undefined && w.thinkTimeDist !== undefined) ctx.addIssue({ code: 'custom', path: ['thinkTimeDist'], message: 'one of thinkTimeUs and thinkTimeDist, found both' });
    if (w.thinkTimeDist !== undefined) {
      const issue = thinkTimeDistIssue(w.thinkTimeDist);
      if (issue !== undefined) ctx.addIssue({ code: 'custom', path: ['thinkTimeDist'], message: issue });
    }
    if (w.sessionMode === 'closed-loop' && w.format !== undefined && w.format !== 'tracev2') ctx.addIssue({ code: 'custom', path: ['format'], message: `a TraceV2 trace for closed-loop session replay, found ${w.format}` });
    if (w.sessionMode === 'closed-loop' && w.timeScale !== 1) ctx.addIssue({ code: 'custom', path: ['timeScale'], message: `1 with closed-loop session replay (recorded think times are not scaled), found ${w.timeScale}` });
  });

export const WorkloadSourceSchema = z.discriminatedUnion('kind', [SyntheticWorkloadSchema, SpecWorkloadSchema, TraceWorkloadSchema]);

export const TraceSettingsSchema = z
  .object({
    level: z.enum(['none', 'decisions', 'full']).default('none'),
    outputPath: z.string().optional(),
    counterfactualK: nonNegInt.default(0),
    summarize: z.boolean().default(false),
    summaryMaxTokens: z.number().int().min(100).default(1000),
    summaryStrategy: z.enum(['issue-focused', 'decision-audit', 'counterfactual']).default('issue-focused'),
    /** p99/p50 TTFT ratio above which an SLO class is reported as a tail-latency blowup. */
    tailRatioThreshold: z.number().gt(1).default(5),
  })
  .strict()
  .superRefine((t, ctx) => {
    // A trace file or candidate list without a trace would silently be ignored: say so instead.
    if (t.level !== 'none') return;
    if (t.outputPath !== undefined)
      ctx.addIssue({ code: 'custom', path: ['outputPath'], message: 'trace level decisions or full for a trace output file, found none' });
    if (t.counterfactualK > 0)
      ctx.addIssue({ code: 'custom', path: ['counterfactualK'], message: 'trace level decisions or full for counterfactual candidates, found none' });
  })
  .default({ level: 'none', counterfactualK: 0, summarize: false, summaryMaxTokens: 1000, summaryStrategy: 'issue-focused', tailRatioThreshold: 5 });

/**
 * The whole configuration of a run, as plain JSON-friendly data. `simulate()` validates its input
 * with this schema; the CLI builds one from flags and files; a JSON Schema generated from it
 * ships as `simulation-config.schema.json` for editors.
 */
export const SimulationConfigSchema = z
  .object({
    seed: z.number().int().default(42),
    /** Stop the simulation at this tick (µs); unset = run until every request has left. */
    horizonUs: z.number().positive().optional(),
    numInstances: posInt.default(1),
    model: z.string().min(1).default('meta-llama/llama-3.1-8b-instruct'),
    hardware: z.string().optional(),
    tp: posInt.optional(),
    /** vLLM `--data-parallel-size`: data-parallel ranks of `tp` GPUs per instance; > 1 only for an MoE model under trained-physics. */
    dp: posInt.default(1),
    /** vLLM `--enable-expert-parallel`: routed experts owned whole by the TP·DP GPUs (an MoE model under trained-physics). */
    enableExpertParallel: z.boolean().default(false),
    /** vLLM `VLLM_ALL2ALL_BACKEND`: the MoE dispatch/combine at `dp` > 1; unset = `allgather_reducescatter`. */
    moeCommBackend: z.enum(MOE_COMM_BACKENDS).optional(),
    latencyModel: z.enum(['blackbox', 'roofline', 'trained-physics']).optional(),
    alphaCoeffs: z.array(z.number()).length(3).optional(),
    /** 3 for blackbox; 7 to 11 for trained-physics. */
    betaCoeffs: z.array(z.number()).min(3).max(11).optional(),
    vllmVersion: z.string().optional(),
    /**
     * Trained-physics coefficients used where `alphaCoeffs` / `betaCoeffs` are not given (a BLIS
     * defaults.yaml's `trained_physics_coefficients`, `--defaults-filepath`); `source` names them
     * in logs and errors; neither alpha nor beta: the file has none, so trained-physics needs
     * `alphaCoeffs` and `betaCoeffs`. Unset: BLIS f90a1e3a's.
     */
    trainedPhysicsCoefficients: z
      .object({ alpha: z.array(z.number().nonnegative()).length(3).optional(), beta: z.array(z.number().nonnegative()).min(7).max(11).optional(), source: z.string() })
      .strict()
      .refine((c) => (c.alpha === undefined) === (c.beta === undefined), 'alpha and beta together, or neither (a defaults file without the section)')
      .optional(),
    modelConfigPath: z.string().optional(),
    hardwareConfigPath: z.string().optional(),
    totalKVBlocks: posInt.optional(),
    gpuMemoryUtilization: z.number().gt(0).lte(1).default(0.9),
    blockSizeTokens: posInt.default(16),
    maxNumSeqs: posInt.default(256),
    maxNumBatchedTokens: posInt.default(2048),
    longPrefillTokenThreshold: nonNegInt.default(0),
    /** Where a prefix-cache hit's first prefill chunk starts for the latency model: the cached length, or 0 as BLIS does (roofline only). */
    prefixHitPrefillStart: z.enum(['cached', 'zero']).default('cached'),
    /** vLLM `--max-model-len`: requests whose prompt plus output exceeds it are dropped (0 = no limit). */
    maxModelLen: nonNegInt.default(0),
    /** BLIS `--kv-cpu-blocks`: CPU tier blocks behind each GPU cache (legacy mirror model); 0 = none. */
    kvCpuBlocks: nonNegInt.default(0),
    /**
     * BLIS `--kv-transfer-bandwidth`: a block reloaded from the CPU tier costs `ceil(blockSizeTokens /
     * bandwidth)` µs, so the unit is tokens per µs (BLIS's help says blocks per tick).
     */
    kvTransferBandwidth: z.number().positive().default(100),
    /** BLIS `--kv-transfer-base-latency`: µs added per reloaded block (BLIS's help says per transfer). */
    kvTransferBaseLatencyUs: nonNegInt.default(0),
    /** BLIS `--kv-offload-threshold`: validated and ignored, as in BLIS (offload is a write-through mirror). */
    kvOffloadThreshold: z.number().min(0).max(1).default(0.9),
    /**
     * Charge prefill compute for blocks reloaded from a CPU tier in the step that reloads them, as
     * BLIS does; off by default (vLLM loads them before it counts what to compute).
     */
    kvReloadRecompute: z.boolean().default(false),
    /** BLIS `--kv-offload-config`'s `kv_offload:` block: the N-tier offload chain. Excludes `kvCpuBlocks`. */
    kvOffload: KVOffloadSchema.optional(),
    /**
     * BLIS `--lora-config`'s `lora:` block: the adapter registry, resident slots per instance and
     * cost coefficients (off unless adapters are declared).
     */
    lora: LoraSchema.optional(),
    /** Prefill/decode disaggregation: pools, decider, KV transfer (off unless P/D instances are set). */
    pd: PdConfigSchema.optional(),
    /** The autoscaler (off unless `intervalUs` > 0). */
    autoscaling: AutoscalingSchema.optional(),
    /** Node pools replicas are placed on (BLIS's `node_pools:`); unset = one unlimited pool of the run's hardware at no cost. */
    nodePools: NodePoolsSchema.optional(),
    /** Loading delay, warm-up and drain policy of replicas (BLIS's `instance_lifecycle:`). */
    lifecycle: LifecycleSchema.optional(),
    admission: policyRef('always-admit'),
    priority: policyRef('constant'),
    routing: z
      .object({
        policy: z.string().min(1).default('round-robin'),
        scorers: z.array(ScorerWeightSchema).optional(),
        params: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .default({ policy: 'round-robin', params: {} }),
    scheduler: policyRef('fcfs'),
    preemptionPolicy: z.enum(['fcfs', 'priority']).default('fcfs'),
    admissionLatencyUs: nonNegInt.default(0),
    routingLatencyUs: nonNegInt.default(0),
    /** µs between refreshes of the instances' load signals the router reads (BLIS: 50 ms, llm-d's scrape interval; 0 = live). */
    snapshotRefreshIntervalUs: nonNegInt.default(50_000),
    /**
     * µs a router's view of the instances' prefix caches lags behind them (BLIS's
     * `--cache-signal-delay`, llm-d's KV-event propagation: 50 ms; 0 = live).
     */
    cacheSignalDelayUs: nonNegInt.default(50_000),
    flowControl: FlowControlSchema,
    workload: WorkloadSourceSchema.default({
      kind: 'synthetic',
      rate: 1,
      numRequests: 100,
      promptTokens: 512,
      promptTokensStdev: 256,
      promptTokensMin: 2,
      promptTokensMax: 7000,
      outputTokens: 512,
      outputTokensStdev: 256,
      outputTokensMin: 2,
      outputTokensMax: 7000,
      prefixTokens: 0,
      arrivalProcess: 'constant',
      timeoutUs: 300_000_000,
    }),
    sloTtftUs: nonNegInt.default(0),
    sloE2eUs: nonNegInt.default(0),
    /**
     * Goodput thresholds by SLO class, ms (`--slo-ttft/--slo-itl/--slo-e2e critical=100ms,...`):
     * each overrides the workload's (a spec's or a trace header's `goodput_slo_targets`) for its
     * class and dimension, as BLIS merges them. With any class gated the result has `goodput`.
     */
    goodputSloTargets: z
      .record(z.string().min(1), z.strictObject({ ttftMs: z.number().positive().optional(), itlMs: z.number().positive().optional(), e2eMs: z.number().positive().optional() }))
      .optional(),
    fitnessWeights: z.record(z.string(), z.number().nonnegative()).optional(),
    trace: TraceSettingsSchema,
    checkInvariants: z.boolean().default(false),
    /** Add per-request records under `requests` in the result. */
    includeRequests: z.boolean().default(false),
    /** BLIS's post-hoc saturation analysis (`--detectors`): final labels under `saturation`; unset = off. */
    saturationAnalysis: SaturationAnalysisSchema.optional(),
    /** Sample per-instance signals every this many µs of simulated time into `timeseries`; unset = none. */
    timeseriesIntervalUs: posInt.optional(),
    /** Most samples a time series keeps per signal: at the cap the interval doubles (every other sample kept). */
    timeseriesMaxSamples: z.number().int().min(2).default(10_000),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.pd !== undefined) for (const issue of pdTopologyIssues(c.pd, c.numInstances)) ctx.addIssue({ code: 'custom', path: ['pd', ...issue.path], message: issue.message });
    for (const issue of moeParallelismIssues(c)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    if (c.kvOffload === undefined) return;
    // BLIS refuses both at start-up: they are two different KV tier models.
    if (c.kvCpuBlocks > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['kvOffload'],
        message: expectedFound('kvCpuBlocks 0 beside kvOffload (the legacy CPU tier and the offload chain are distinct models; set only one)', `kvCpuBlocks ${c.kvCpuBlocks}`),
      });
    const bs = offloadBlockSizeIssue(c.kvOffload.blockSize, c.blockSizeTokens);
    if (bs !== undefined) ctx.addIssue({ code: 'custom', path: ['kvOffload', 'blockSize'], message: bs });
  });

/** A validated configuration with every default filled in. */
export type SimulationConfig = z.output<typeof SimulationConfigSchema>;
/** What callers may pass: every field with a default is optional. */
export type SimulationConfigInput = z.input<typeof SimulationConfigSchema>;
export type WorkloadSource = z.output<typeof WorkloadSourceSchema>;
