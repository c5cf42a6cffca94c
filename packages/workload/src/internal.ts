/**
 * `@blis/workload/internal`: pieces the other `@blis/*` packages (the CLI, the cluster, observe,
 * adapters) and this repository's tests share: samplers, the Go RNG port, the TraceV2 column and
 * header helpers, bounded file and YAML readers, text excerpts, limits, goodput-target schemas.
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release; a simulation
 * user needs only the package root.
 *
 * @module internal
 */

export {
  ClientSchema,
  WindowSchema,
  DistributionSchema,
  ArrivalSchema,
  hasWindowOverrides,
} from './spec-schema.js';
export { workloadSpecNotes } from './spec-load.js';
export { upgradeV1Spec } from './spec-upgrade.js';
export { SpecRequestSource, networkDelay, DEFAULT_SESSION_TIMEOUT_US } from './request-source.js';
export { isOpenLoopSpec } from './open-loop.js';
export { windowRate } from './window-rate.js';
export { InferencePerfSource } from './inference-perf/inference-perf-source.js';
export { MinHeap } from './min-heap.js';
export type { InferencePerfSourceOptions } from './inference-perf/inference-perf-source.js';
export { InferencePerfSchema, InferencePerfSpecSchema } from './inference-perf/inference-perf-schema.js';
export type { IpPlan, IpClient, IpSampler, IpIssue } from './inference-perf/inference-perf-plan.js';
export { flagSpecObject } from './from-flags.js';
export { parseThinkTimeDist, sampleThinkTimeUs, ThinkTimeDistError } from './think-time/think-time-dist.js';
export { lengthSampler, empiricalValues } from './distributions.js';
export { MEDIA, MultimodalSchema, multimodalSampler } from './multimodal/index.js';
export type { LengthSampler } from './distributions.js';
export { gapSampler, gammaDraw, gammaFn, weibullShapeForCv } from './arrivals.js';
export type { GapSampler } from './arrivals.js';
export { promptBlockHashes, mooncakeBlockHashes, requestBlockHashes } from './block-hashes.js';
export type { RequestBlockHashes } from './block-hashes.js';
export type { PromptIdentity } from './block-hashes.js';
export { ClosedLoopTraceSource } from './session-replay/closed-loop-trace.js';
export type { ClosedLoopReplayOptions } from './session-replay/closed-loop-trace.js';
export { estimateTraceRecords, type TraceRecordEstimate } from './traces/trace-size.js';
export { parseTraceV2Header, traceV2Pair, TRACEV2_COLUMNS, TraceV2HeaderSchema } from './traces/tracev2.js';
export { TraceKVOffloadSchema, TraceKVOffloadTierSchema, TraceObservedKVMetricsSchema, kvOffloadHeaderBlock } from './traces/tracev2-kv-offload.js';
export { azureTimestampUs } from './traces/azure-timestamp.js';
export { TraceRequestSource } from './traces/trace-source.js';
export { LineReader, splitCsv, csvField, intField } from './traces/line-reader.js';
export { TextLines } from './traces/text-lines.js';
export type { Lines } from './traces/text-lines.js';
export { describeExpected, customFound } from './describe-issue.js';
export { readBoundedText, type BoundedTextOptions, type BoundedTextResult } from './bounded-text-file.js';
export { nonRegularFileKind, type FileTypeStats } from './file-kind.js';
export {
  parseYamlInput,
  readYamlText,
  yamlLineOf,
  yamlNumberSource,
  YAML_LIMITS,
} from './yaml-input.js';
export type { YamlInput } from './yaml-input.js';
export { yamlSyntaxProblem, type YamlSyntaxProblem } from './yaml-syntax.js';
export { keyText, fieldPathText, looksBinary, formatBytes } from './text-excerpt.js';
export { TRACE_LIMITS } from './traces/trace-limits.js';
export { MAX_TOKENS_PER_REQUEST, MAX_SPEC_CLIENTS, MAX_INFERENCE_PERF_REQUESTS, MAX_WINDOW_REQUESTS } from './request-limits.js';
export {
  GoRand,
  GoRandSource,
  fnv1a64,
  goSubsystemSeed,
  goSubsystemRand,
  GoPartitionedRng,
  GO_WORKLOAD_SUBSYSTEM,
} from './go-rand/index.js';
export type { GoSeed } from './go-rand/index.js';
export { servegenDirectory, MAX_SERVEGEN_FILE_BYTES } from './servegen/servegen-directory.js';
export { ServeGenDataSchema } from './servegen/servegen-spec.js';
export { GoodputSloTargetsSchema, SloDimTargetsSchema, mergeGoodputTargets, resolvedTargets } from './goodput/goodput-targets.js';
export type { ServeGenFiles, ServeGenLog } from './servegen/servegen-files.js';
export { SERVEGEN_PERIODS } from './servegen/servegen-language.js';
export { mixedSloClassIssues } from './compose/index.js';
export {
  goYamlDocument,
  goFloatText,
  goYamlKeyLess,
  goYamlString,
  type GoYamlNode,
} from './go-yaml/index.js';
