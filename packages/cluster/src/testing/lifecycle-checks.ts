import type { LogEvent, RunLog } from './run-log.js';
import type { ViolationList } from './violation.js';

type State = 'new' | 'admitted' | 'routed' | 'split' | 'queued' | 'running';

/** Where each drop reason may take a request from (a split parent is out at its parts). */
const DROP_FROM: Record<string, readonly State[]> = {
  rejected: ['new'],
  // The E/P/D encode stage had no routable pod: the decode pod was chosen, nothing was sent.
  'encode-rejected': ['admitted'],
  // Turned away or expired at the gateway; flow control's in-flight eviction ends a queued or running one.
  shed: ['admitted', 'queued', 'running'],
  unservable: ['routed', 'split'],
  timed_out: ['routed', 'queued', 'running', 'split'],
  drained: ['routed', 'queued', 'running', 'split'],
};
const TICKING = new Set<LogEvent['kind']>(['admission', 'routing', 'queued', 'scheduled', 'preempted', 'step', 'dropped', 'disaggregation']);

/**
 * INV-2 (queued -> running -> completed, preemption back to queued, one terminal state per
 * request), INV-3 (reported times never go back) and INV-5 (arrival <= admission <= routing <=
 * enqueue <= schedule <= completion) over the log. A P/D part (`<id>_prefill`, `<id>_decode`)
 * moves queued <-> running on its own (a queued decode part may give its KV back: a
 * preemption in place); its parent ends once. Under autoscaling, a `redirect` drain sends a
 * queued request back through admission (and a split parent's prefill through routing), and a
 * request whose replica was drained away while it travelled to it is routed again.
 */
export function checkLifecycle(log: RunLog, out: ViolationList): void {
  const state = new Map<string, State>();
  const terminal = new Map<string, string>();
  const admittedAt = new Map<string, number>();
  const routedAt = new Map<string, number>();
  const scheduledAt = new Map<string, number>();
  let clock = 0;
  // Under autoscaling a `redirect` drain sends queued requests back through admission and routing.
  const redirects = log.facts.replicaBounds !== undefined;
  const move = (e: LogEvent & { request: string }, key: string, from: readonly State[], to: State) => {
    const cur = state.get(key) ?? 'new';
    if (!from.includes(cur)) out.add('INV-2', `request ${key}: ${cur} -> ${to} (${e.kind} at ${e.now} µs)`, { request: key, atUs: e.now });
    state.set(key, to);
  };
  const end = (e: LogEvent & { request: string }, outcome: string, from: readonly State[]) => {
    const id = e.request;
    if (terminal.has(id)) {
      out.add('INV-2', `request ${id} ended twice: ${terminal.get(id)} then ${outcome} at ${e.now} µs`, { request: id, atUs: e.now });
      return;
    }
    const cur = state.get(id) ?? 'new';
    if (!from.includes(cur)) out.add('INV-2', `request ${id}: ${cur} -> ${outcome} at ${e.now} µs`, { request: id, atUs: e.now });
    state.delete(id);
    terminal.set(id, outcome);
  };
  for (const e of log.events) {
    if (TICKING.has(e.kind)) {
      if (e.now < clock) out.add('INV-3', `${e.kind} reported at ${e.now} µs after the clock reached ${clock} µs`, { atUs: e.now });
      else clock = e.now;
    }
    switch (e.kind) {
      case 'admission':
        if (e.now < e.arrivalUs) out.add('INV-5', `request ${e.request} admitted at ${e.now} µs, before it arrived at ${e.arrivalUs} µs`, { request: e.request, atUs: e.now });
        admittedAt.set(e.request, e.now);
        move(e, e.request, redirects ? ['new', 'queued', 'routed'] : ['new'], e.admit ? 'admitted' : 'new');
        break;
      case 'routing': {
        const at = admittedAt.get(e.request);
        if (at === undefined || e.now < at) out.add('INV-5', `request ${e.request} routed at ${e.now} µs, admitted at ${at ?? 'never'}`, { request: e.request, atUs: e.now });
        routedAt.set(e.request, e.now);
        // A redirect drain of a prefill part routes its parent's prefill again; a request whose
        // replica was drained away while it travelled to it (routing latency) is routed again.
        const again = e.stage === 'prefill-routing' ? 'split' : 'routed';
        move(e, e.request, redirects ? ['admitted', again] : ['admitted'], again);
        break;
      }
      case 'queued': {
        if (e.part === 'whole') {
          const at = routedAt.get(e.request);
          if (at === undefined || e.now < at) out.add('INV-5', `request ${e.request} queued at ${e.now} µs, routed at ${at ?? 'never'}`, { request: e.request, atUs: e.now });
          move(e, e.request, ['routed'], 'queued');
        } else move(e, e.request, redirects ? ['new', 'queued'] : ['new'], 'queued');
        break;
      }
      case 'scheduled':
        scheduledAt.set(e.request, e.now);
        move(e, e.request, ['queued'], 'running');
        break;
      case 'preempted':
        // A queued decode part may give back the KV transferred to it (it is prefilled again later).
        move(e, e.request, e.part === 'decode' ? ['running', 'queued'] : ['running'], 'queued');
        break;
      case 'completed': {
        if (e.now < clock) out.add('INV-5', `request ${e.request} completed at ${e.now} µs, before ${clock} µs`, { request: e.request, atUs: e.now });
        const at = scheduledAt.get(e.request);
        if (state.get(e.request) === 'running' && at !== undefined && e.now < at)
          out.add('INV-5', `request ${e.request} completed at ${e.now} µs, scheduled at ${at} µs`, { request: e.request, atUs: e.now });
        end(e, 'completed', ['running', 'split']);
        break;
      }
      case 'dropped':
        end(e, e.reason, DROP_FROM[e.reason] ?? ['routed', 'queued', 'running', 'split']);
        break;
    }
  }
}
