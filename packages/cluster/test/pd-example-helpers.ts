import { type RequestSpec, type SimRequest, makeRequestSpec } from '@blis/engine';
import type { LatencyModel, StepBatch } from '@blis/latency';
import type { RoutingDecision } from '@blis/policies';
import type { DecisionObserver, PdTransferRecord } from '@blis/trace';
import type { SimulationConfigInput, SimulationResult } from '../src/index.js';
import { hashesFor } from './helpers.js';

// What the P/D worked examples (pd-*.test.ts) share: PD-2's latency model, requests with prompt
// hashes, the 1 + 1 pod layout, an observer of the P/D hooks. Hand arithmetic is in the tests'
// comments (docs: /work/shared/reference/blis-semantics.md §2.10); times are µs unless named _ms.

export const LLAMA = 'meta-llama/llama-3.1-8b-instruct';

/**
 * PD-2's latency model: any step with a prefill in it takes 30,000 µs, a decode-only step
 * `decodeBase + decodePerSeq × sequences` (8000 for one sequence by default); no alpha queueing
 * delay, no output-token time, no post-decode overhead.
 */
export function pd2Latency(decodeBase = 8000, decodePerSeq = 0): LatencyModel {
  return {
    kind: 'pd2',
    stepTime: (b: StepBatch) => (b.prefillCount > 0 ? 30_000 : decodeBase + decodePerSeq * b.decodeCount),
    queueingTime: () => 0,
    outputTokenTime: () => 0,
    postDecodeFixedOverhead: () => 0,
  };
}

/** A request with prompt hashes: `shared` leading blocks of group `group`, the rest its own. */
export function req(index: number, arrivalUs: number, inputTokens: number, outputTokens: number, extra: Partial<RequestSpec> & { group?: string; shared?: number } = {}): RequestSpec {
  const { group = 'g', shared = 0, ...rest } = extra;
  return makeRequestSpec({ index, arrivalUs, inputTokens, outputTokens, blockHashes: hashesFor(inputTokens, group, shared, `u${index}`), ...rest });
}

/** 1 prefill pod (instance_0) + 1 decode pod (instance_1), TP 1, llama-3.1-8b's KV shape, PD-2 latency. */
export function onePlusOne(pd: SimulationConfigInput['pd'], extra: Partial<SimulationConfigInput> = {}): SimulationConfigInput {
  return { numInstances: 2, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, includeRequests: true, ...extra, pd: { prefillInstances: 1, decodeInstances: 1, ...pd } };
}

/** Everything the P/D hooks report, in order. */
export class Recorder implements DecisionObserver {
  readonly scheduled: { id: string; part: number; now: number; instance: number }[] = [];
  readonly transfers: PdTransferRecord[] = [];
  readonly transferSeenAt: number[] = [];
  readonly completed: { id: string; now: number; e2e: number }[] = [];
  readonly dropped: { id: string; now: number; reason: string }[] = [];
  readonly decisions: { id: string; disaggregate: boolean; decodeInstance: number }[] = [];
  readonly prefillRouting: { id: string; decision: RoutingDecision; poolSize: number }[] = [];
  readonly routing: { id: string; decision: RoutingDecision; poolSize: number }[] = [];
  readonly steps: { now: number; stepTime: number; instance: number }[] = [];

  onScheduled(r: SimRequest, now: number, instance: number) {
    this.scheduled.push({ id: r.spec.id, part: r.part, now, instance });
  }
  onPdTransfer(rec: PdTransferRecord, now: number) {
    this.transfers.push(rec);
    this.transferSeenAt.push(now);
  }
  onCompleted(r: SimRequest, now: number, e2e: number) {
    this.completed.push({ id: r.spec.id, now, e2e });
  }
  onDropped(r: SimRequest, now: number, reason: string) {
    this.dropped.push({ id: r.spec.id, now, reason });
  }
  onDisaggregation(r: SimRequest, d: { disaggregate: boolean }, decodeInstance: number) {
    this.decisions.push({ id: r.spec.id, disaggregate: d.disaggregate, decodeInstance });
  }
  onPrefillRouting(r: SimRequest, decision: RoutingDecision, state: { instances: readonly unknown[] }) {
    this.prefillRouting.push({ id: r.spec.id, decision, poolSize: state.instances.length });
  }
  onRouting(r: SimRequest, decision: RoutingDecision, state: { instances: readonly unknown[] }) {
    this.routing.push({ id: r.spec.id, decision, poolSize: state.instances.length });
  }
  onStep(now: number, stepTime: number, _b: StepBatch, instance: number) {
    this.steps.push({ now, stepTime, instance });
  }
}

export const byId = (r: SimulationResult) => new Map((r.requests ?? []).map((q) => [q.request_id, q]));
export const us = (ms: number) => Math.round(ms * 1000);

/** The result JSON without what only a P/D run has: the `pd` section and each instance's `pool`. */
export function withoutPd(r: SimulationResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) {
    if (k === 'pd') continue;
    out[k] = k === 'instances' ? r.instances.map(({ pool: _pool, ...b }) => b) : v;
  }
  return out;
}
