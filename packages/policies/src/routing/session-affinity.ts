import * as z from 'zod';
import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import { outstandingRequests } from '../load.js';
import { parsePolicyParams, positiveInt } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { argminBy, requireInstances } from './select.js';
import { lazySchema } from '../lazy-schema.js';

export const sessionAffinityParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Session table size that triggers cleanup (RouteSim default 100,000). */
    maxSessions: positiveInt().default(100_000),
  }),
);
export type SessionAffinityParams = z.input<typeof sessionAffinityParamsSchema>;

/**
 * RouteSim `session_affinity`: a request of a known session goes where its session went, if
 * that instance is still routable; otherwise to the least outstanding instance, which becomes
 * the session's home. Requests without a session id are routed least-outstanding and not
 * recorded. When the table exceeds `maxSessions` the oldest half (insertion order) is dropped
 * (RouteSim drops an arbitrary half). Returns no scores.
 */
export function createSessionAffinity(params: SessionAffinityParams = {}): RoutingPolicy {
  const { maxSessions } = parsePolicyParams(
    'routing',
    'session-affinity',
    sessionAffinityParamsSchema,
    params,
  );
  const homes = new Map<string, number>();
  return {
    name: 'session-affinity',
    route(request: RequestView, state: RouterState): RoutingDecision {
      requireInstances('session-affinity', state);
      const snaps = state.instances;
      const session = request.sessionId;
      if (session !== '') {
        const home = homes.get(session);
        if (home !== undefined) {
          for (let i = 0; i < snaps.length; i++) {
            if (snaps[i].index === home)
              return { instance: i, reason: 'session-affinity (sticky)' };
          }
          homes.delete(session);
        }
      }
      const i = argminBy(snaps, outstandingRequests);
      if (session !== '') {
        if (homes.size > maxSessions) {
          let drop = Math.floor(homes.size / 2);
          for (const key of homes.keys()) {
            if (drop-- <= 0) break;
            homes.delete(key);
          }
        }
        homes.set(session, snaps[i].index);
      }
      return { instance: i, reason: 'session-affinity (new, least outstanding)' };
    },
  };
}
