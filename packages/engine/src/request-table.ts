import type { RequestSpec } from './request-spec.js';
import { RequestPart, type RequestPartValue, SimRequest } from './request.js';

/**
 * Live requests by slot. Slots are reused after a request leaves, so the table (and the KV
 * cache's owner ids) stays as small as the number of requests in flight.
 */
export class RequestTable {
  private readonly slots: (SimRequest | undefined)[] = [];
  private readonly free: number[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }

  add(spec: RequestSpec, part: RequestPartValue = RequestPart.Whole): SimRequest {
    const slot = this.free.length > 0 ? this.free.pop()! : this.slots.length;
    const req = new SimRequest(spec, slot, part);
    this.slots[slot] = req;
    this.live++;
    return req;
  }

  get(slot: number): SimRequest {
    const r = this.slots[slot];
    if (r === undefined) throw new Error(`no live request in slot ${slot}`);
    return r;
  }

  /**
   * The live request in `slot`, or undefined: for an event that may outlive its request (a
   * deadline left behind by a request that completed), where building an error to catch costs
   * more than the rest of the event.
   */
  find(slot: number): SimRequest | undefined {
    return this.slots[slot];
  }

  /** Calls `fn` on every live request, in slot order. */
  forEach(fn: (req: SimRequest) => void): void {
    for (const r of this.slots) if (r !== undefined) fn(r);
  }

  remove(req: SimRequest): void {
    if (this.slots[req.slot] !== req) throw new Error(`request ${req.spec.id} is not in slot ${req.slot}`);
    this.slots[req.slot] = undefined;
    this.free.push(req.slot);
    this.live--;
  }
}
