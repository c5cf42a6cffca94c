import type { RequestTable } from '@blis/engine/internal';
import { RequestPart, RequestState, type SimRequest } from '@blis/engine';
import type { RoutingPolicy } from '@blis/policies';
import type { ClusterSetup } from './cluster-setup.js';
import type { ClusterMembers } from './cluster-members.js';
import { anyRouterListens, tellLeft, tellRouter } from './router-hooks.js';

/** How a request that was in an instance left without completing. */
export type InstanceLeaving = 'dropped' | 'timed_out' | 'drained';

/**
 * Every way a request leaves the cluster (rejected, shed, completed, dropped, timed out,
 * drained): the counters, the completion log, what the routers, observer and source hear, and
 * the slot it frees. One per cluster simulator, which owns the table and in-transit map it shares;
 * the sub-systems it reads (flow control, P/D, the fleet) are the simulator's, read when a request
 * leaves, since they are built after the instances that report to this.
 */
export class RequestExits {
  /** The router that hears about every request the user sent (under P/D, the decode router). */
  readonly router: RoutingPolicy;
  /** Some router has an `onEvent` hook (decided once: no event objects otherwise). */
  readonly listening: boolean;
  /** Whether instances serve LoRA adapters (the completion log then keeps each request's adapter). */
  private readonly servesAdapters: boolean;

  constructor(
    private readonly sim: ClusterMembers,
    private readonly setup: ClusterSetup,
    private readonly table: RequestTable,
    /** Requests admitted but not yet at an instance, with when they were admitted. */
    private readonly admittedAt: Map<SimRequest, number>,
  ) {
    this.servesAdapters = setup.instances.some((c) => c.lora !== undefined);
    this.router = setup.pd?.decodeRouting ?? setup.routing;
    this.listening = anyRouterListens([setup.routing, setup.pd?.prefillRouting, setup.pd?.decodeRouting]);
  }

  /** Takes a rejected (or shed) request out of the system; `as` is the request the user sent. */
  reject(req: SimRequest, now: number, as: SimRequest, status: 'rejected' | 'shed' | 'expired' | 'encode' = 'rejected', detail?: string): void {
    const counters = this.sim.counters;
    this.admittedAt.delete(req);
    if (status === 'shed') counters.shed++;
    else if (status === 'expired') counters.expired++;
    else if (status === 'encode') counters.encodeRejected++;
    else counters.rejected++;
    this.sim.autoscaler?.requestLeft(now);
    req.state = RequestState.Rejected;
    as.state = RequestState.Rejected;
    this.sim.left?.push({ req: as, outcome: status === 'encode' ? 'rejected' : status, atUs: now });
    // The trace knows a gateway expiry as shed, with the reason in its detail.
    const traced = status === 'expired' ? 'shed' : status === 'encode' ? 'rejected' : status;
    if (detail === undefined) this.setup.observer?.onDropped?.(as, now, traced);
    else this.setup.observer?.onDropped?.(as, now, traced, detail);
    this.table.remove(req);
    this.setup.source.onRequestDone?.(as.spec, now, 'rejected');
  }

  /**
   * A router refused `req` (RouteSim's `Reject`): counted with admission rejections. Under P/D
   * `req` may be a prefill part: its parent is rejected with it, and both routers hear of it.
   */
  rejectedByRouter(req: SimRequest, now: number, policy: RoutingPolicy, reason: string, parent?: SimRequest): void {
    this.reject(req, now, parent ?? req, 'rejected', reason);
    if (!this.listening) return;
    tellRouter(policy, 'dropped', now, req.view, undefined, 'rejected');
    if (parent !== undefined) tellRouter(this.router, 'dropped', now, parent.view, undefined, 'rejected');
  }

  onCompleted(req: SimRequest, now: number): void {
    const pd = this.sim.pd;
    if (pd !== undefined && req.part !== RequestPart.Whole) {
      if (req.part === RequestPart.Prefill) pd.prefillDone(req, now);
      else {
        // The parent completed: it is logged under its own id, with its prefill's scheduling
        // delay and cache hits (BLIS's projection onto the parent).
        const p = pd.decodeDone(req, now);
        this.logCompletion(req, now, p.parent, p.prefillSchedulingDelayUs, p.prefillCacheHitBlocks, p.prefillPreemptions + req.preemptions);
        this.finish(req, now, pd.setup.decodeRouting, p.parent, 'completed');
      }
      return;
    }
    this.logCompletion(req, now, req, req.scheduledAt - req.spec.arrivalUs, req.cacheHitBlocks, req.preemptions);
    this.finish(req, now, pd?.setup.decodeRouting ?? this.setup.routing, req, 'completed');
  }

  /**
   * Logs a completion: `req` ran it on its instance, `as` is the request the user sent (itself,
   * or under P/D the parent of a decode part).
   */
  private logCompletion(req: SimRequest, now: number, as: SimRequest, schedulingDelayUs: number, cacheHitBlocks: number, preemptions: number): void {
    const sim = this.sim;
    sim.counters.completed++;
    const log = sim.log;
    const m = sim.instances[req.instance].metrics;
    let e2e = m.e2eUs.get(m.e2eUs.length - 1);
    let ttft = req.ttft;
    const fleet = sim.fleet;
    if (fleet !== undefined) {
      // A request served warming up is slower by the warm-up factor; its E2E by as much, so
      // that TTFT never exceeds E2E (BLIS inflates TTFT alone).
      const f = fleet.warmFactor(req.spec.index);
      if (f !== 1) {
        e2e += (f - 1) * ttft;
        ttft *= f;
      }
      fleet.onCompleted(req.instance, now);
      sim.autoscaler?.requestLeft(now);
      sim.autoscaler?.onCompleted(fleet.replicas[req.instance].group, this.setup.lifecycle!.metTargets(req.spec.sloTargetUs, ttft, e2e));
    }
    log.instance.push(req.instance);
    log.sloClass.push(sim.sloNames.code(req.spec.sloClass));
    log.tenant.push(sim.tenantNames.code(req.spec.tenantId));
    log.ttftUs.push(ttft);
    log.e2eUs.push(e2e);
    log.sloTargetUs.push(req.spec.sloTargetUs);
    log.networkDelayUs.push(req.spec.networkDelayUs);
    log.outputTokens.push(req.outputTokens);
    log.inputTokens.push(req.inputTokens);
    log.arrivalUs.push(req.spec.arrivalUs);
    log.itlUs.push(m.itlUs.get(m.itlUs.length - 1));
    log.schedulingDelayUs.push(schedulingDelayUs);
    log.completionUs.push(now);
    log.cacheHitBlocks.push(cacheHitBlocks);
    log.preemptions.push(preemptions);
    if (this.setup.recordRequestIds) log.ids.push(as.spec.id);
    this.setup.goodput?.onCompleted(as.spec, ttft, m.itlUs.get(m.itlUs.length - 1), e2e);
    if (this.servesAdapters) {
      const a = as.spec.adapter;
      log.adapter.push(a === undefined || a === '' ? -1 : log.adapterNames.code(a));
    }
    if (req.spec.sessionId !== '') {
      const st = sim.sessions.get(req.spec.sessionId);
      if (st === undefined) sim.sessions.set(req.spec.sessionId, { startUs: req.spec.arrivalUs, endUs: now, rounds: 1 });
      else {
        st.rounds++;
        if (req.spec.arrivalUs < st.startUs) st.startUs = req.spec.arrivalUs;
        if (now > st.endUs) st.endUs = now;
      }
    }
    this.setup.observer?.onCompleted?.(as, now, e2e);
  }

  /** `req` left its instance without completing (under P/D, a part: its parent leaves with it). */
  onLeft(req: SimRequest, now: number, outcome: InstanceLeaving): void {
    const pd = this.sim.pd;
    if (pd !== undefined && req.part !== RequestPart.Whole) {
      const policy = pd.policyFor(req);
      const p = pd.partLeft(req, now);
      this.noteLeft(p.parent, now, outcome);
      this.finish(req, now, policy, p.parent, outcome);
      return;
    }
    this.noteLeft(req, now, outcome);
    this.finish(req, now, pd?.setup.decodeRouting ?? this.setup.routing, req, outcome);
  }

  private noteLeft(req: SimRequest, now: number, outcome: InstanceLeaving): void {
    const counters = this.sim.counters;
    if (outcome === 'dropped') counters.dropped++;
    else if (outcome === 'timed_out') counters.timedOut++;
    else counters.drainedDropped++;
    this.sim.autoscaler?.requestLeft(now);
    this.sim.left?.push({ req, outcome: outcome === 'dropped' ? 'dropped_unservable' : outcome, atUs: now });
    this.setup.observer?.onDropped?.(req, now, outcome === 'dropped' ? 'unservable' : outcome);
  }

  /** A P/D parent left between its parts (no slot, nothing in flight): count it, tell the source. */
  parentLeft(parent: SimRequest, now: number, outcome: InstanceLeaving): void {
    this.noteLeft(parent, now, outcome);
    this.setup.source.onRequestDone?.(parent.spec, now, outcome === 'drained' ? 'dropped' : outcome);
    if (this.listening) tellRouter(this.router, 'dropped', now, parent.view, undefined, outcome === 'dropped' ? 'unservable' : outcome);
  }

  /**
   * Frees what `req` held at the router (its in-flight count, the policy's hook) and its slot;
   * when the request the user sent (`as`) is done, tells the source.
   */
  finish(req: SimRequest, now: number, policy: RoutingPolicy, as: SimRequest | undefined, outcome?: 'completed' | InstanceLeaving): void {
    const sim = this.sim;
    sim.flow?.left(req);
    sim.state.finished(req.instance, req.spec.tenantId);
    policy.onComplete?.(req.view, req.instance);
    if (this.listening) tellLeft(req, now, policy, this.router, as, outcome);
    this.table.remove(req);
    sim.fleet?.onLeft(req.instance, now);
    if (as !== undefined) this.setup.source.onRequestDone?.(as.spec, now, outcome === 'drained' ? 'dropped' : outcome!);
  }
}
