// @blis/workload: what a simulation user turns into a request stream. The root holds the spec
// (schema, loaders, its errors), the request source, the trace readers and the TraceV2 writer,
// and the library forms of `blis convert` and `blis compose`. The samplers, the Go RNG port,
// bounded file/YAML readers and text helpers the other @blis packages share are in
// `@blis/workload/internal` (unstable). README: "What is public".

export { WorkloadSpecError, TraceReadError } from './errors.js';
export type { InputIssue } from './errors.js';
export { WorkloadSpecSchema, SLO_CLASSES, DEFAULT_SLO_CLASS } from './spec-schema.js';
export type { WorkloadSpec, WorkloadSpecInput, ClientSpec, WindowSpec } from './spec-schema.js';
export { loadWorkloadSpec, parseWorkloadSpec, parseWorkloadSpecText } from './spec-load.js';
export type { LoadedSpec, SpecLoadOptions } from './spec-load.js';
export { createRequestSource } from './create-request-source.js';
export type { RequestSourceOptions } from './request-source-options.js';
export type { InferencePerfSection, InferencePerfSpec } from './inference-perf/inference-perf-schema.js';
export type { InferencePerfOrigin } from './inference-perf/inference-perf-spec.js';
export { specFromFlags } from './from-flags.js';
export type { ThinkTimeDist } from './think-time/think-time-dist.js';
export type { FlagWorkload } from './from-flags.js';
export type {
  Medium,
  MultimodalOrigin,
  MultimodalPrompt,
  MultimodalSampler,
  MultimodalSpec,
} from './multimodal/index.js';
export type { DistributionSpec } from './distributions.js';
export type { ArrivalSpec } from './arrivals.js';
export { openTrace, detectTraceFormat } from './traces/open-trace.js';
export type { TraceFormat, OpenTraceOptions } from './traces/open-trace.js';
export { openTraceV2, openTraceV2Text, writeTraceV2, readTraceV2Header } from './traces/tracev2.js';
export type { TraceKVOffloadBlock, TraceKVOffloadTier, TraceObservedKVMetrics } from './traces/tracev2-kv-offload.js';
export type { TraceV2Header, TraceV2RowOutcome } from './traces/tracev2.js';
export { openAzureTrace } from './traces/azure.js';
export { openMooncakeTrace } from './traces/mooncake.js';
export type { TraceOptions } from './traces/trace-source.js';
export { blisSpecYaml } from './convert/blis-spec-document.js';
export type {
  BlisWorkloadSpec,
  BlisClient,
  BlisCohort,
  BlisDist,
  BlisArrival,
  BlisWindow,
  BlisReasoning,
} from './convert/blis-spec-document.js';
export { convertPreset } from './convert/convert-preset.js';
export { convertInferencePerf, convertInferencePerfFile } from './convert/convert-inference-perf.js';
export { convertServeGen } from './servegen/convert-servegen.js';
export type { ServeGenConvertOptions } from './servegen/convert-servegen.js';
export { ServeGenError } from './servegen/servegen-files.js';
export type { ServeGenDataSpec } from './servegen/servegen-spec.js';
export type { GoodputFlagTargets, GoodputSloTargetsSpec, SloDimTargets, SloDimTargetsSpec } from './goodput/goodput-targets.js';
export type { ServeGenPeriod } from './servegen/servegen-language.js';
export { type ComposeIssue, composeSpecs, type ComposedSpec } from './compose/index.js';
