import { InvariantViolation, type SimRequest } from '@blis/engine';
import type { RequestView, RouterEvent, RouterEventKind, RoutingDecision, RoutingPolicy } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';

/**
 * Why a request left unserved, as a router's `dropped` event names it: the decision trace's
 * outcome statuses (an instance that could never hold the request is `unservable`).
 */
export type RouterDropReason = 'rejected' | 'shed' | 'unservable' | 'timed_out' | 'drained';

/**
 * Whether any of these routers has an `onEvent` hook. Decided once when the cluster is built:
 * when none listens the cluster never builds an event object nor calls {@link tellRouter}.
 */
export function anyRouterListens(routers: readonly (RoutingPolicy | undefined)[]): boolean {
  for (const r of routers) if (r?.onEvent !== undefined) return true;
  return false;
}

/**
 * Hands `policy` one event, if it listens. Only the fields that apply are present, so an
 * event reads the same whichever path produced it.
 */
export function tellRouter(policy: RoutingPolicy, kind: RouterEventKind, nowUs: number, request: RequestView, instance?: number, reason?: RouterDropReason): void {
  if (policy.onEvent === undefined) return;
  let event: RouterEvent;
  if (instance !== undefined && instance >= 0)
    event = reason === undefined ? { kind, nowUs, request, instance } : { kind, nowUs, request, instance, reason };
  else event = reason === undefined ? { kind, nowUs, request } : { kind, nowUs, request, reason };
  policy.onEvent(event);
}

/**
 * A router's priority hint: it replaces the priority policy's score for good (the engine
 * skips re-scoring hinted requests, see `SimRequest.priorityHinted`).
 */
export function applyPriorityHint(req: SimRequest, priority: number, policy: RoutingPolicy): void {
  if (!Number.isFinite(priority)) throw new InvariantViolation('routing', `policy ${policy.name} gave request ${req.spec.id} the priority hint ${priority}; expected a finite number`);
  req.view.priority = priority;
  req.priorityHinted = true;
}

/**
 * After a routing decision sends `req` to instance `target`: its priority hint (which the trace
 * records as a priority record), then the router hears `routed`. Called before the dispatch:
 * with no routing latency the instance may drop the request at once, and `routed` comes first.
 */
export function noteRouted(req: SimRequest, decision: RoutingDecision, policy: RoutingPolicy, target: number, now: number, observer: DecisionObserver | undefined, listening: boolean): void {
  if (decision.priority !== undefined) {
    applyPriorityHint(req, decision.priority, policy);
    observer?.onPriority?.(req, decision.priority, now);
  }
  if (listening) tellRouter(policy, 'routed', now, req.view, target);
}
