import { EventQueue } from './event-queue.js';
import { EventKind, instanceOfClass } from './event-kinds.js';
import type { InstanceConfig } from './instance-config.js';
import { InvariantViolation } from './invariant-error.js';
import { InstanceSimulator } from './instance-simulator.js';
import { RequestTable } from './request-table.js';
import type { RequestSource } from './request-spec.js';
import { SimClock } from './clock.js';

export interface RunInstanceOptions {
  /** Stop processing events after this tick (default: run until no events remain). */
  horizonUs?: number;
}

export interface RunInstanceResult {
  instance: InstanceSimulator;
  injected: number;
  /** Tick at which the simulation ended (last event, capped at the horizon). */
  endUs: number;
}

/**
 * Runs one instance on its own clock, requests arriving straight from `source`: the minimal
 * driver, for library users and engine-level tests. Clusters use `@blis/cluster` instead.
 */
export function runInstance(config: InstanceConfig, source: RequestSource, opts: RunInstanceOptions = {}): RunInstanceResult {
  const horizon = opts.horizonUs ?? Number.POSITIVE_INFINITY;
  const events = new EventQueue();
  const table = new RequestTable();
  const clock = new SimClock();
  let injected = 0;
  const instance = new InstanceSimulator(config, events, (slot) => table.find(slot), {
    onCompleted(req, now) {
      table.remove(req);
      source.onRequestDone?.(req.spec, now, 'completed');
    },
    onDropped(req, now) {
      table.remove(req);
      source.onRequestDone?.(req.spec, now, 'dropped');
    },
    onTimedOut(req, now) {
      table.remove(req);
      source.onRequestDone?.(req.spec, now, 'timed_out');
    },
    // Quiet steps start before anything else can happen here, and before the horizon.
    quietBoundUs: () => Math.min(source.peekArrivalUs(), events.peekTime(), horizon),
  });
  let end = 0;
  for (;;) {
    const nextArrival = source.peekArrivalUs();
    const nextEvent = events.peekTime();
    if (nextArrival === Number.POSITIVE_INFINITY && nextEvent === Number.POSITIVE_INFINITY) break;
    // Arrivals are cluster-class events: at equal ticks they precede instance events.
    if (nextArrival <= nextEvent) {
      if (nextArrival > horizon) break;
      clock.advanceTo(nextArrival);
      const spec = source.next()!;
      injected++;
      instance.inject(table.add(spec), nextArrival);
      end = nextArrival;
      continue;
    }
    if (nextEvent > horizon) break;
    events.pop();
    clock.advanceTo(events.poppedTime);
    if (instanceOfClass(events.poppedClass) !== config.index)
      throw new InvariantViolation('routing', `event for instance ${instanceOfClass(events.poppedClass)} on a single-instance run`);
    // A deadline of a request that already left moves nothing, not even the run's end.
    if (!instance.handle(events.poppedKind, events.poppedArg, events.poppedTime)) continue;
    end = events.poppedTime;
    if (events.poppedKind === EventKind.Step) end = Math.max(end, instance.lastBusyUntil);
  }
  return { instance, injected, endUs: Math.min(Math.max(end, instance.lastBusyUntil), horizon) };
}
