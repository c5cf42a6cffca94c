import { BlackboxLatencyModel, type LatencyModel } from '@blis/latency';
import { expect } from 'vitest';
import { ROOT_HASH, chainHash } from '@blis/kvcache';
import {
  INSTANCE_DEFAULTS,
  type InstanceConfig,
  InstanceSimulator,
  type RequestSpec,
  type SimRequest,
} from '../src/index.js';
import {
  EventQueue,
  RequestTable,
  SimClock,
  instanceOfClass,
} from '../src/internal.js';

// A single-instance driver for tests: runInstance's loop, plus every hook recorded, so that
// tests can check the order of decisions and not only the final metrics.

export type LogKind = 'queued' | 'scheduled' | 'preempted' | 'completed' | 'dropped';

export interface LogEntry {
  t: number;
  kind: LogKind;
  /** RequestSpec.index */
  req: number;
  /** For `scheduled`: the request's progress (cached prompt tokens) and cache hit blocks at admission. */
  progress?: number;
  hits?: number;
}

export interface StepRecord {
  start: number;
  stepTime: number;
  prefillTokens: number;
  decodeTokens: number;
  /** Prompt tokens per prefilling request, in running order. */
  prefillNew: number[];
  /** Free KV blocks once the batch is formed. */
  freeBlocks: number;
  running: number;
  queued: number;
}

export interface Outcome {
  index: number;
  arrival: number;
  enqueuedAt: number;
  firstScheduledAt: number;
  scheduledAt: number;
  firstTokenAt: number;
  completedAt: number;
  ttft: number;
  e2e: number;
  itlMean: number;
  itlCount: number;
  schedulingDelay: number;
  preemptions: number;
  cacheHitBlocks: number;
}

export interface DriveResult {
  instance: InstanceSimulator;
  log: LogEntry[];
  steps: StepRecord[];
  outcomes: Map<number, Outcome>;
  injected: number;
}

/** Small made-up blackbox coefficients (µs), so step times are easy to compute by hand. */
export function blackbox(alpha: [number, number, number], beta: [number, number, number]): LatencyModel {
  return new BlackboxLatencyModel(alpha, beta);
}

export function instanceConfig(latency: LatencyModel, over: Partial<InstanceConfig> = {}): InstanceConfig {
  return {
    index: 0,
    id: 'instance_0',
    latency,
    totalKVBlocks: 1000,
    ...INSTANCE_DEFAULTS,
    checkInvariants: true,
    ...over,
  };
}

/**
 * Runs `specs` on one instance to the end (or `maxEvents`, which fails the test: a livelock).
 * `onStep` looks at the instance once each step's batch is formed.
 */
export function drive(config: InstanceConfig, specs: readonly RequestSpec[], maxEvents = 1_000_000, onStep?: (instance: InstanceSimulator, now: number) => void): DriveResult {
  const events = new EventQueue();
  const table = new RequestTable();
  const clock = new SimClock();
  const log: LogEntry[] = [];
  const steps: StepRecord[] = [];
  const outcomes = new Map<number, Outcome>();
  const pending = [...specs].sort((a, b) => a.arrivalUs - b.arrivalUs || a.index - b.index);
  let next = 0;
  let injected = 0;
  const onDone = (req: SimRequest) => table.remove(req);
  const instance: InstanceSimulator = new InstanceSimulator(config, events, (slot) => table.get(slot), {
    onCompleted(req, now) {
      log.push({ t: now, kind: 'completed', req: req.spec.index });
      outcomes.set(req.spec.index, {
        index: req.spec.index,
        arrival: req.spec.arrivalUs,
        enqueuedAt: req.enqueuedAt,
        firstScheduledAt: req.firstScheduledAt,
        scheduledAt: req.scheduledAt,
        firstTokenAt: req.firstTokenAt,
        completedAt: req.completedAt,
        ttft: req.ttft,
        e2e: instance.metrics.e2eUs.get(instance.metrics.completed - 1),
        itlMean: instance.metrics.itlUs.get(instance.metrics.completed - 1),
        itlCount: req.itlCount,
        schedulingDelay: req.scheduledAt - req.spec.arrivalUs,
        preemptions: req.preemptions,
        cacheHitBlocks: req.cacheHitBlocks,
      });
      onDone(req);
    },
    onDropped(req, now) {
      log.push({ t: now, kind: 'dropped', req: req.spec.index });
      onDone(req);
    },
    onQueued(req, now) {
      log.push({ t: now, kind: 'queued', req: req.spec.index });
    },
    onScheduled(req, now) {
      log.push({ t: now, kind: 'scheduled', req: req.spec.index, progress: req.progress, hits: req.cacheHitBlocks });
    },
    onPreempted(req, now) {
      log.push({ t: now, kind: 'preempted', req: req.spec.index });
    },
    onStep(now, stepTime, batch) {
      onStep?.(instance, now);
      steps.push({
        start: now,
        stepTime,
        prefillTokens: batch.prefillTokens,
        decodeTokens: batch.decodeTokens,
        prefillNew: Array.from(batch.prefillNewTokens.subarray(0, batch.prefillCount)),
        freeBlocks: instance.kv.freeBlocks,
        running: instance.running.length,
        queued: instance.waitQueue.length,
      });
    },
  });
  let handled = 0;
  for (;;) {
    const nextArrival = next < pending.length ? pending[next].arrivalUs : Number.POSITIVE_INFINITY;
    const nextEvent = events.peekTime();
    if (nextArrival === Number.POSITIVE_INFINITY && nextEvent === Number.POSITIVE_INFINITY) break;
    if (++handled > maxEvents) throw new Error(`no end after ${maxEvents} events: livelock?`);
    if (nextArrival <= nextEvent) {
      clock.advanceTo(nextArrival);
      injected++;
      instance.inject(table.add(pending[next++]), nextArrival);
      continue;
    }
    events.pop();
    clock.advanceTo(events.poppedTime);
    expect(instanceOfClass(events.poppedClass)).toBe(0);
    instance.handle(events.poppedKind, events.poppedArg, events.poppedTime);
  }
  expect(events.size).toBe(0);
  return { instance, log, steps, outcomes, injected };
}

/** Block hashes of a prompt: `shared` leading blocks from group `group`, the rest unique to `owner`. */
export function promptHashes(inputTokens: number, blockSize: number, shared: number, group: number, owner: number): number[] {
  const full = Math.floor(inputTokens / blockSize);
  const out: number[] = [];
  let h = ROOT_HASH;
  for (let i = 0; i < full; i++) {
    // Content keys: group blocks share (group, i); private blocks are (owner, i), in another range.
    const key = i < shared ? 1_000_000 * (group + 1) + i : 1_000_000_000 + 10_000 * owner + i;
    h = chainHash(h, key);
    out.push(h);
  }
  return out;
}
