import type { RouterEvent } from '../interfaces.js';
import type { AutoScaleContext, RequestView, RouterState, SchedulerContext, SchedulerEntry } from '../views.js';

/**
 * Describes the decision a call was making, from the call's own (unproxied) arguments. Only run
 * when something went wrong, so it may be slow; it must never throw on malformed arguments.
 */
export type DescribeCall = (a: unknown, b: unknown, c: unknown) => string;

const num = (v: unknown): string => (typeof v === 'number' ? String(v) : '?');

/** `request 17 ("r17")`. */
function request(r: unknown): string {
  const v = r as Partial<RequestView> | null | undefined;
  if (v === null || typeof v !== 'object') return 'a request';
  return `request ${num(v.index)} (${JSON.stringify(String(v.id))})`;
}

const nowOf = (state: unknown): unknown => (state !== null && typeof state === 'object' ? (state as Partial<RouterState>).nowUs : undefined);

/** admit, route, score, decide: `request 17 ("r17") at 1200 µs`, the time from the router state. */
export const requestInState: DescribeCall = (r, state) => `${request(r)} at ${num(nowOf(state))} µs`;

/** observe(request, chosen, state). */
export const requestObserved: DescribeCall = (r, chosen, state) => `${request(r)} at ${num(nowOf(state))} µs, routed to position ${num(chosen)}`;

/** priority(request, nowUs). */
export const requestAtTime: DescribeCall = (r, nowUs) => `${request(r)} at ${num(nowUs)} µs`;

/** onComplete(request, instance): the hook carries no time. */
export const requestCompleted: DescribeCall = (r, instance) => `${request(r)} completed on instance ${num(instance)}`;

/** onEvent(event). */
export const routerEvent: DescribeCall = (e) => {
  const ev = e as Partial<RouterEvent> | null | undefined;
  if (ev === null || typeof ev !== 'object') return 'an event';
  return `the ${String(ev.kind)} event of ${request(ev.request)} at ${num(ev.nowUs)} µs`;
};

/** compare(a, b, ctx): both requests, the instance and the time. */
export const schedulerPair: DescribeCall = (a, b, ctx) => {
  const c = ctx as Partial<SchedulerContext> | null | undefined;
  const req = (e: unknown) => request((e as Partial<SchedulerEntry> | null | undefined)?.request);
  return `${req(a)} and ${req(b)} on instance ${num(c?.instanceIndex)} at ${num(c?.nowUs)} µs`;
};

/** evaluate(ctx): `scaling group decode at 5000000 µs`. */
export const scalingGroup: DescribeCall = (ctx) => {
  const c = ctx as Partial<AutoScaleContext> | null | undefined;
  return `scaling group ${String(c?.pool)} at ${num(c?.nowUs)} µs`;
};

/** metrics(): called once, when the run ends. */
export const runEnd: DescribeCall = () => 'the end of the run';
