import type { RequestSource, RequestSpec } from '@blis/engine';
import type { ObservedRecord } from './observed-record.js';

/** BLIS's closed loop (`--concurrency`): virtual users that think between an answer and the next request. */
export interface ClosedLoop {
  users: number;
  /** A user's pause, µs, when {@link thinkTime} is not given (`--think-time-ms`). */
  thinkTimeUs: number;
  /** One pause per call, µs (`--think-time-dist`): drawn afresh after every answer. */
  thinkTime?: () => number;
  /** Send nothing after this long, µs. */
  horizonUs?: number;
}

/** How requests leave the client. */
export interface DispatchPlan {
  source: RequestSource;
  /** Requests in flight at most (a semaphore, as BLIS's `--max-concurrency`). */
  maxConcurrency: number;
  /** The first this many dispatches are sent but not recorded. */
  warmupRequests: number;
  /**
   * Closed loop: this many virtual users each send a request, wait for its answer, think, and
   * send the next; the source gives lengths in order, its arrival times are not used.
   */
  closedLoop?: ClosedLoop;
  signal?: AbortSignal;
  /** Sends one request; `arrivalUs` is its workload-relative arrival, `index` its request_id. */
  send: (spec: RequestSpec, index: number, arrivalUs: number) => Promise<ObservedRecord>;
  /** After each answer; `recorded` is false for warm-up requests. */
  onDone?: (record: ObservedRecord, recorded: boolean) => void;
}

export interface DispatchResult {
  /** Requests sent, warm-up included. */
  sent: number;
  /** Records of the non-warm-up requests, in request_id order. */
  records: ObservedRecord[];
}

/** Something to wait on that settles when any request completes or the run is stopped. */
class Wakeup {
  private waiters: (() => void)[] = [];
  wait(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer !== undefined) clearTimeout(timer);
        resolve();
      };
      this.waiters.push(done);
      if (ms !== undefined) timer = setTimeout(() => this.fire(done), ms);
    });
  }
  notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
  private fire(f: () => void): void {
    this.waiters = this.waiters.filter((x) => x !== f);
    f();
  }
}

/**
 * Sends the source's requests against the wall clock. Open loop: each request leaves at
 * `start + arrival` once a concurrency slot is free; a session's next round enters the source
 * when the previous answer arrives (`onRequestDone`, at the wall time since the start), so it is
 * sent in arrival order with the rest. Stopping (`signal`) ends dispatch; the requests in flight
 * are aborted by the sender and recorded as it reports them.
 */
export async function dispatch(plan: DispatchPlan): Promise<DispatchResult> {
  const started = performance.now();
  const sinceStartUs = () => Math.floor((performance.now() - started) * 1000);
  const wake = new Wakeup();
  const onAbort = () => wake.notify();
  plan.signal?.addEventListener('abort', onAbort, { once: true });
  const stopped = () => plan.signal?.aborted === true;
  const records: ObservedRecord[] = [];
  const inFlight = new Set<Promise<void>>();
  let sent = 0;

  const launch = (spec: RequestSpec, arrivalUs: number): Promise<void> => {
    const index = sent++;
    const p = plan.send(spec, index, arrivalUs).then((record) => {
      const recorded = index >= plan.warmupRequests;
      if (recorded) records.push(record);
      plan.source.onRequestDone?.(spec, sinceStartUs(), record.status === 'ok' ? 'completed' : 'timed_out');
      plan.onDone?.(record, recorded);
    });
    const tracked = p.finally(() => {
      inFlight.delete(tracked);
      wake.notify();
    });
    inFlight.add(tracked);
    return tracked;
  };

  const slot = async (): Promise<boolean> => {
    while (inFlight.size >= plan.maxConcurrency && !stopped()) await wake.wait();
    return !stopped();
  };

  try {
    if (plan.closedLoop !== undefined) {
      const { users, thinkTimeUs, thinkTime, horizonUs } = plan.closedLoop;
      const pause = thinkTime ?? (() => thinkTimeUs);
      const user = async (): Promise<void> => {
        for (;;) {
          if (stopped() || (horizonUs !== undefined && sinceStartUs() > horizonUs) || !(await slot())) return;
          const spec = plan.source.next();
          if (spec === undefined) return;
          await launch(spec, sinceStartUs());
          const us = pause();
          if (us > 0 && !stopped()) await sleepUntil(sinceStartUs() + us, sinceStartUs, plan.signal);
        }
      };
      await Promise.all(Array.from({ length: users }, user));
    } else {
      for (;;) {
        if (stopped()) break;
        const at = plan.source.peekArrivalUs();
        if (at === Number.POSITIVE_INFINITY) {
          // Nothing pending now: a session's next round may still come from an answer in flight.
          if (inFlight.size === 0) break;
          await wake.wait();
          continue;
        }
        const waitUs = at - sinceStartUs();
        // Woken early by an answer: a follow-up may now come first, so look again.
        if (waitUs > 0) {
          await wake.wait(waitUs / 1000);
          continue;
        }
        if (!(await slot())) break;
        const spec = plan.source.next();
        if (spec !== undefined) void launch(spec, spec.arrivalUs);
      }
    }
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  } finally {
    plan.signal?.removeEventListener('abort', onAbort);
  }
  records.sort((a, b) => a.requestId - b.requestId);
  return { sent, records };
}

/**
 * Waits until `nowUs()` reaches `atUs`, or less when `signal` aborts. Node's timers count whole
 * milliseconds on a clock read once per loop turn, so a plain `setTimeout` can fire up to about a
 * millisecond before the µs clock says the time is up; a user's think time measured on that
 * clock would then come out short. The remainder is slept again (under a millisecond: a
 * `setImmediate` turn) until the clock agrees.
 */
export async function sleepUntil(atUs: number, nowUs: () => number, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const left = atUs - nowUs();
    if (left <= 0 || signal?.aborted === true) return;
    if (left >= 1000) await sleep(left / 1000, signal);
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
