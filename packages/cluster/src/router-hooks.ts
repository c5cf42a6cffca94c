import { InvariantViolation, RequestPart, type SimRequest } from '@blis/engine';
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

/**
 * The routers hear that `req` left its instance (called after `onComplete`). A whole request or
 * a P/D decode part: `policy` hears of the request the user sent (`as`); a prefill part: the
 * prefill router (`policy`) hears of the part and, when it left unserved, the request's router
 * (`main`, the decode router) of its parent. `outcome` undefined: a prefill part's prompt is done.
 */
export function tellLeft(req: SimRequest, now: number, policy: RoutingPolicy, main: RoutingPolicy, as: SimRequest | undefined, outcome: 'completed' | 'dropped' | 'timed_out' | 'drained' | undefined): void {
  const kind = outcome === undefined || outcome === 'completed' ? 'completed' : 'dropped';
  const reason: RouterDropReason | undefined = kind === 'completed' ? undefined : outcome === 'dropped' ? 'unservable' : (outcome as RouterDropReason);
  if (req.part !== RequestPart.Prefill) {
    tellRouter(policy, kind, now, (as ?? req).view, req.instance, reason);
    return;
  }
  tellRouter(policy, kind, now, req.view, req.instance, reason);
  if (as !== undefined && kind === 'dropped') tellRouter(main, 'dropped', now, as.view, undefined, reason);
}
