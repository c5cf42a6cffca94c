import { type InstanceSimulator, InvariantViolation, RequestPart, type SimRequest } from '@blis/engine';
import { type EventQueue, GrowableFloat64, type RequestTable } from '@blis/engine/internal';
import type { DisaggregationDecider, PoolType, RoutingPolicy } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import { type EncodeSetup, EncodeStage } from '../encode/encode-stage.js';
import type { ClusterRouterState } from '../router-state.js';
import { type KvTransferSettings, KvTransferLink } from './kv-transfer.js';
import { ParentRequest } from './parent-request.js';
import { servesDecode, servesPrefill } from './pool-layout.js';
import { PoolView } from './pool-view.js';
import { noteRouted } from '../router-hooks.js';

/** Cluster event kinds of P/D (their classes: after routing, gateway dispatch and injection). */
export const PD_PREFILL_ROUTING = 5;
export const PD_TRANSFER_START = 6;
export const PD_TRANSFER_DONE = 7;

/** What the cluster gives P/D: its policies, pools and the transfer link. */
export interface PdSetup {
  /** Each instance's pool, by index. */
  layout: readonly PoolType[];
  decider: DisaggregationDecider;
  /** Routes prefill parts within the prefill pool (the main policy unless prefill scorers are set). */
  prefillRouting: RoutingPolicy;
  /** Picks the decode pod first, for every request (the main policy unless decode scorers are set). */
  decodeRouting: RoutingPolicy;
  link: KvTransferSettings;
  blockSizeTokens: number;
  /** Check INV-PD-2 (pool exclusivity) on every dispatch and INV-PD-4 (phase causality) on every parent. */
  checkInvariants?: boolean;
  /** E/P/D's encode stage, when there are encode pods. */
  encode?: EncodeSetup;
}

/** The cluster as P/D needs it. */
export interface PdHost {
  readonly instances: readonly InstanceSimulator[];
  readonly state: ClusterRouterState;
  readonly table: RequestTable;
  readonly events: EventQueue;
  readonly observer: DecisionObserver | undefined;
  /** Counts `req` in flight on `target` and sends it there after the routing latency. */
  dispatchTo(req: SimRequest, target: number, now: number): void;
  /** Counts a part that skips routing (a decode part) in flight on `target`. */
  countDispatch(req: SimRequest, target: number): void;
  /** `next` takes `old`'s place among requests admitted but not yet at an instance. */
  replaceInTransit(old: SimRequest, next: SimRequest): void;
  /** Instance-side bookkeeping of a part that left its pod (in flight, policy hook, its slot). */
  releasePart(part: SimRequest, now: number, policy: RoutingPolicy): void;
  /** The parent left without completing: count it, tell the observer and the source. */
  parentLeft(parent: SimRequest, now: number, outcome: 'dropped' | 'timed_out' | 'drained'): void;
  /** No routable pod in the pool: the request (or prefill part) waits for one. */
  hold(req: SimRequest, prefill: boolean): void;
  /** An `immediate` drain terminated this pod. */
  gone(instance: number): boolean;
  /** A part whose pod was drained away: it and its parent are discarded. */
  drained(part: SimRequest, now: number): void;
  /** A terminated pod gave back KV it still held: it may now give its cache's memory back. */
  goneReleased(instance: number): void;
  /** Some router has an `onEvent` hook. */
  readonly listening: boolean;
  /** `policy` refused `req` (a whole request, or a prefill part of `parent`): it is rejected. */
  rejected(req: SimRequest, now: number, policy: RoutingPolicy, reason: string, parent?: SimRequest): void;
  /** The encode stage found no routable encode pod for `req`: it is rejected (BLIS's encode routing rejection). */
  encodeRejected(req: SimRequest, now: number): void;
  /** No parent waits for `instance` as its decode pod any more: a draining pod may now be idle. */
  decodeReleased(instance: number, now: number): void;
}

/** Counters and distributions of a P/D run (the `pd` section of the result). */
export interface PdStats {
  /** Parents whose KV reached the decode pod (BLIS's "Disaggregated Requests"). */
  disaggregated: number;
  /** Requests the decider kept whole on their decode pod. */
  local: number;
  /** Parents dropped because the decode pod could not hold the prompt's KV. */
  droppedAtDecodeKV: number;
  transfersInitiated: number;
  transfersCompleted: number;
  transferDurationUs: GrowableFloat64;
  /** TTFT of each completed disaggregated parent. */
  parentTtftUs: GrowableFloat64;
  /** Of which: transfer time, to tell transfer-bound requests apart. */
  parentTransferUs: GrowableFloat64;
}

/**
 * Prefill/decode disaggregation on the cluster's clock, as BLIS and llm-d do it: the decode pod
 * is chosen first, then the decider; a disaggregated request becomes a prefill part routed in
 * the prefill pool and, once its prompt is processed, a decode part on the chosen decode pod,
 * which holds the prompt's KV from the transfer's start and joins the wait queue when it ends.
 * The transfer starts when the last prefill step ends (BLIS starts it when that step starts).
 */
export class PdCoordinator {
  readonly setup: PdSetup;
  readonly link: KvTransferLink;
  readonly stats: PdStats = {
    disaggregated: 0,
    local: 0,
    droppedAtDecodeKV: 0,
    transfersInitiated: 0,
    transfersCompleted: 0,
    transferDurationUs: new GrowableFloat64(),
    parentTtftUs: new GrowableFloat64(),
    parentTransferUs: new GrowableFloat64(),
  };
  /** Parents between their prefill's end and their transfer's start: in no table slot. */
  awaitingStart = 0;
  /** Decode parts holding reserved KV while their transfer runs. */
  transferring = 0;
  readonly prefillPool: PoolView;
  readonly decodePool: PoolView;
  /** E/P/D's encode stage; undefined without encode pods (then it costs nothing). */
  readonly encode: EncodeStage | undefined;
  private readonly host: PdHost;
  private readonly parents = new Map<number, ParentRequest>();
  /**
   * Per decode pod, the parents routed to it that are still in prefill (or waiting for their
   * transfer): the pod holds nothing of theirs yet, but a `wait` drain must not end before they
   * arrive, or their decode would find the pod gone.
   */
  private readonly bound: number[] = [];

  constructor(setup: PdSetup, host: PdHost) {
    this.setup = setup;
    this.host = host;
    this.link = new KvTransferLink(setup.link);
    const members = (f: (p: PoolType) => boolean) => setup.layout.flatMap((p, i) => (f(p) ? [i] : []));
    this.prefillPool = new PoolView(host.state, members(servesPrefill));
    this.decodePool = new PoolView(host.state, members(servesDecode));
    this.encode = setup.encode === undefined ? undefined : new EncodeStage(setup.encode, new PoolView(host.state, members((p) => p === 'encode')), setup.layout.length, host.observer);
  }

  /** The routing decision for a whole request: decode pod, decider, then local or disaggregated. */
  route(req: SimRequest, now: number): void {
    const host = this.host;
    const pool = this.decodePool;
    if (pool.instances.length === 0) {
      host.hold(req, false);
      return;
    }
    host.state.prepare(now);
    const decision = this.setup.decodeRouting.route(req.view, pool);
    if (decision.reject === true) {
      host.rejected(req, now, this.setup.decodeRouting, decision.reason);
      return;
    }
    let pos = checkedPosition(decision.instance, pool, this.setup.decodeRouting.name);
    const dd = this.setup.decider.decide(req.view, pool, pos);
    if (dd.decodeInstance !== undefined) pos = checkedPosition(dd.decodeInstance, pool, this.setup.decider.name);
    const decodeInst = pool.members[pos];
    if (this.setup.checkInvariants && !servesDecode(this.setup.layout[decodeInst]))
      throw new InvariantViolation('INV-PD-2', `request ${req.spec.id} given decode pod ${decodeInst}, a ${this.setup.layout[decodeInst]} pod`);
    // A request without a prompt has no KV to move: it stays whole.
    const split = dd.disaggregate && req.inputTokens > 0;
    host.observer?.onDisaggregation?.(req, dd, decodeInst, now);
    // E/P/D: the encode stage comes after the decider, before the request goes anywhere.
    const encode = this.encode;
    if (encode !== undefined) {
      const e = encode.run(req, decodeInst, now);
      if (e === 'pool-empty') {
        host.encodeRejected(req, now);
        return;
      }
      if (e === 'refused') {
        host.rejected(req, now, encode.setup.routing, encode.lastReason);
        return;
      }
    }
    if (!split) {
      this.stats.local++;
      host.observer?.onRouting?.(req, pos === decision.instance ? decision : { ...decision, instance: pos }, pool, now);
      noteRouted(req, decision, this.setup.decodeRouting, decodeInst, now, host.observer, host.listening);
      host.dispatchTo(req, decodeInst, now);
      return;
    }
    // The decode router's hint holds for the whole request: both parts inherit it below.
    noteRouted(req, decision, this.setup.decodeRouting, decodeInst, now, host.observer, host.listening);
    const parent = new ParentRequest(req, decodeInst, this.setup.blockSizeTokens);
    this.parents.set(req.spec.index, parent);
    this.bound[decodeInst] = (this.bound[decodeInst] ?? 0) + 1;
    host.table.remove(req);
    const prefill = host.table.add({ ...req.spec, id: `${req.spec.id}_prefill`, outputTokens: 0 }, RequestPart.Prefill);
    prefill.view.priority = req.view.priority;
    prefill.priorityHinted = req.priorityHinted;
    host.replaceInTransit(req, prefill);
    host.events.push(now, PD_PREFILL_ROUTING, PD_PREFILL_ROUTING, prefill.slot);
  }

  handle(kind: number, arg: number, now: number): void {
    if (kind === PD_PREFILL_ROUTING) this.routePrefill(this.host.table.get(arg), now);
    else if (kind === PD_TRANSFER_START) this.startTransfer(this.parentOf(arg), now);
    else if (kind === PD_TRANSFER_DONE) this.finishTransfer(this.parentOf(arg), now);
    else throw new Error(`unknown P/D event kind ${kind}`);
  }

  /** The prefill part's prompt is processed (`now` is the end of its last step). */
  prefillDone(part: SimRequest, now: number): void {
    const p = this.parentOf(part.spec.index);
    p.prefillCompleteUs = now;
    p.prefillSchedulingDelayUs = part.scheduledAt - part.spec.arrivalUs;
    p.prefillCacheHitBlocks = part.cacheHitBlocks;
    p.prefillPreemptions = part.preemptions;
    this.host.releasePart(part, now, this.setup.prefillRouting);
    this.awaitingStart++;
    this.host.events.push(now, PD_TRANSFER_START, PD_TRANSFER_START, part.spec.index);
  }

  /** The decode part completed: the parent did. Returns the parent, its fields brought up to date. */
  decodeDone(part: SimRequest, now: number): ParentRequest {
    const p = this.parentOf(part.spec.index);
    this.parents.delete(part.spec.index);
    p.completionUs = now;
    if (this.setup.checkInvariants) checkCausality(p);
    const parent = p.parent;
    parent.instance = part.instance;
    parent.ttft = part.ttft;
    parent.firstTokenAt = part.firstTokenAt;
    parent.completedAt = now;
    parent.state = part.state;
    this.stats.parentTtftUs.push(part.ttft);
    this.stats.parentTransferUs.push(p.transferCompleteUs - p.transferStartUs);
    return p;
  }

  /** A part was dropped or timed out on its pod: so was its parent. */
  partLeft(part: SimRequest, now: number): ParentRequest {
    const p = this.parentOf(part.spec.index);
    this.parents.delete(part.spec.index);
    // A prefill part leaving takes its parent's claim on the decode pod with it.
    if (part.part === RequestPart.Prefill) this.unbind(p.decodeInstance, now);
    p.parent.instance = part.instance;
    p.parent.state = part.state;
    return p;
  }

  /** Calls `fn` on every disaggregated request still in the system (in prefill, in transfer or in decode). */
  forEachLiveParent(fn: (parent: SimRequest) => void): void {
    for (const p of this.parents.values()) fn(p.parent);
  }

  /** The policy that routed a part (its in-flight count and completion hook belong to it). */
  policyFor(part: SimRequest): RoutingPolicy {
    return part.part === RequestPart.Prefill ? this.setup.prefillRouting : this.setup.decodeRouting;
  }

  /** Every P/D invariant that holds at the end of a run (INV-PD-3 needs no transfer cut off). */
  checkInvariants(): void {
    const s = this.stats;
    if (this.transferring === 0 && this.awaitingStart === 0 && s.transfersInitiated !== s.transfersCompleted)
      throw new InvariantViolation('INV-PD-3', `${s.transfersInitiated} KV transfers initiated but ${s.transfersCompleted} completed`);
  }

  /** Routes a prefill part within the prefill pool (again, after a redirect or a wait). */
  routePrefill(part: SimRequest, now: number): void {
    const host = this.host;
    const pool = this.prefillPool;
    if (pool.instances.length === 0) {
      host.hold(part, true);
      return;
    }
    host.state.prepare(now);
    const policy = this.setup.prefillRouting;
    const decision = policy.route(part.view, pool);
    const p = this.parentOf(part.spec.index);
    if (decision.reject === true) {
      // The parent goes with its prefill part, and with it its claim on the decode pod.
      this.parents.delete(part.spec.index);
      this.unbind(p.decodeInstance, now);
      host.rejected(part, now, policy, decision.reason, p.parent);
      return;
    }
    const target = pool.members[checkedPosition(decision.instance, pool, policy.name)];
    p.prefillInstance = target;
    p.prefillEnqueueUs = now;
    host.observer?.onPrefillRouting?.(p.parent, decision, pool, now);
    if (this.setup.checkInvariants && !servesPrefill(this.setup.layout[target]))
      throw new InvariantViolation('INV-PD-2', `prefill part of ${p.parent.spec.id} routed to instance ${target}, a ${this.setup.layout[target]} pod`);
    // The prefill router's hint is for the prefill part only.
    noteRouted(part, decision, policy, target, now, host.observer, host.listening);
    host.dispatchTo(part, target, now);
  }

  /** Parents routed to `instance` as their decode pod that have not reached it yet. */
  boundTo(instance: number): number {
    return this.bound[instance] ?? 0;
  }

  private unbind(instance: number, now: number): void {
    this.bound[instance]--;
    if (this.bound[instance] === 0) this.host.decodeReleased(instance, now);
  }

  private startTransfer(p: ParentRequest, now: number): void {
    const host = this.host;
    this.awaitingStart--;
    const spec = p.parent.spec;
    const part = host.table.add({ ...spec, id: `${spec.id}_decode` }, RequestPart.Decode);
    part.view.priority = p.parent.view.priority;
    part.priorityHinted = p.parent.priorityHinted;
    this.stats.transfersInitiated++;
    p.transferStartUs = now;
    if (host.gone(p.decodeInstance)) {
      // Its decode pod was drained away (immediate) since it was chosen.
      this.bound[p.decodeInstance]--;
      p.decode = part;
      part.instance = p.decodeInstance;
      this.stats.transfersCompleted++;
      host.countDispatch(part, p.decodeInstance);
      host.drained(part, now);
      return;
    }
    const reserved = host.instances[p.decodeInstance].reserveTransferredKV(part);
    // From here the pod holds the transfer's KV (not idle), or the parent is gone.
    this.unbind(p.decodeInstance, now);
    if (!reserved) {
      // Dropped at the start, with a zero-length transfer so that INV-PD-3 still pairs it.
      host.table.remove(part);
      this.parents.delete(spec.index);
      this.stats.transfersCompleted++;
      this.stats.droppedAtDecodeKV++;
      p.completionUs = now;
      host.parentLeft(p.parent, now, 'dropped');
      return;
    }
    p.decode = part;
    this.transferring++;
    const duration = this.link.start(p.numKVBlocks);
    this.stats.transferDurationUs.push(duration);
    host.events.push(now + duration, PD_TRANSFER_DONE, PD_TRANSFER_DONE, spec.index);
  }

  private finishTransfer(p: ParentRequest, now: number): void {
    const host = this.host;
    this.transferring--;
    this.link.finish();
    this.stats.transfersCompleted++;
    this.stats.disaggregated++;
    p.transferCompleteUs = now;
    p.decodeEnqueueUs = now;
    const part = p.decode!;
    host.observer?.onPdTransfer?.(
      {
        requestId: p.parent.spec.id,
        startUs: p.transferStartUs,
        durationUs: now - p.transferStartUs,
        numKVBlocks: p.numKVBlocks,
        prefillInstance: p.prefillInstance,
        decodeInstance: p.decodeInstance,
      },
      now,
    );
    host.countDispatch(part, p.decodeInstance);
    if (host.gone(p.decodeInstance)) {
      // Its pod was terminated (an `immediate` drain) while the KV was on its way: the
      // reservation goes back with the part, as a dead pod frees its memory.
      host.instances[p.decodeInstance].releaseReservedKV(part);
      host.drained(part, now);
      host.goneReleased(p.decodeInstance);
    } else host.instances[p.decodeInstance].enqueueTransferred(part, now);
  }

  private parentOf(index: number): ParentRequest {
    const p = this.parents.get(index);
    if (p === undefined) throw new InvariantViolation('INV-PD', `no disaggregated request with index ${index}`);
    return p;
  }
}

function checkedPosition(pos: number, pool: PoolView, who: string): number {
  if (!Number.isInteger(pos) || pos < 0 || pos >= pool.instances.length)
    throw new InvariantViolation('routing', `policy ${who} chose position ${pos} of a pool of ${pool.instances.length}`);
  return pos;
}

/** INV-PD-4 on a completed parent: each phase starts no earlier than the one before ends. */
function checkCausality(p: ParentRequest): void {
  const chain = [
    ['arrival', p.parent.spec.arrivalUs],
    ['prefill enqueue', p.prefillEnqueueUs],
    ['prefill complete', p.prefillCompleteUs],
    ['transfer start', p.transferStartUs],
    ['transfer complete', p.transferCompleteUs],
    ['decode enqueue', p.decodeEnqueueUs],
    ['completion', p.completionUs],
  ] as const;
  for (let i = 1; i < chain.length; i++)
    if (!(chain[i - 1][1] >= 0 && chain[i - 1][1] <= chain[i][1]))
      throw new InvariantViolation('INV-PD-4', `request ${p.parent.spec.id}: ${chain.map(([k, v]) => `${k} ${v}`).join(', ')}`);
}
