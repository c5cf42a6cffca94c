import * as z from 'zod';
import type { AdmissionDecision, AdmissionPolicy } from '../interfaces.js';
import { positiveInt, unitInterval, parsePolicyParams } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const tenantQuotaParamsSchema = lazySchema(() =>
  z
    .strictObject({
      /** Cluster capacity in concurrently admitted (in-flight) requests. */
      maxInFlight: positiveInt('an integer > 0 (cluster in-flight capacity)'),
      /** Per-tenant share of `maxInFlight`, each in [0, 1]. */
      quotas: z.record(z.string(), unitInterval('a share in [0, 1]')).optional(),
      /** Share of tenants absent from `quotas`. Default: an equal share (see below). */
      defaultShare: unitInterval('a share in [0, 1]').optional(),
      /** Number of tenants an equal share divides by; default: tenants seen so far. */
      tenantCount: positiveInt().optional(),
      /** Let a tenant over its quota use idle capacity while the cluster is below `maxInFlight`. */
      allowBorrowing: z.boolean({ error: 'expected true or false' }).default(false),
    })
    .refine((p) => !(p.defaultShare !== undefined && p.tenantCount !== undefined), {
      error: 'give defaultShare or tenantCount, not both',
      path: ['tenantCount'],
    }),
);
export type TenantQuotaParams = z.input<typeof tenantQuotaParamsSchema>;

/**
 * Per-tenant share of the cluster's in-flight capacity.
 *
 * A tenant's limit is `max(1, floor(share * maxInFlight))` concurrently admitted requests,
 * where share is its entry in `quotas`, else `defaultShare`, else `1 / tenantCount`, else
 * `1 / (distinct tenants seen so far)` — so with no configuration every tenant gets an equal
 * share of the tenants that have shown up. A request is admitted when its tenant is below its
 * limit; when it is not, it is admitted only with `allowBorrowing` and while the cluster's total
 * in-flight count is below `maxInFlight`. The tenant's in-flight count comes from
 * `RouterState.tenant(id).inFlight` and does not include the request being decided.
 */
export function createTenantQuota(params: TenantQuotaParams): AdmissionPolicy {
  const p = parsePolicyParams('admission', 'tenant-quota', tenantQuotaParamsSchema, params);
  const quotas = new Map(Object.entries(p.quotas ?? {}));
  const seen = new Set<string>();
  return {
    name: 'tenant-quota',
    admit(request: RequestView, state: RouterState): AdmissionDecision {
      const tenantId = request.tenantId;
      seen.add(tenantId);
      let share = quotas.get(tenantId);
      if (share === undefined) {
        if (p.defaultShare !== undefined) share = p.defaultShare;
        else share = 1 / (p.tenantCount ?? seen.size);
      }
      const limit = Math.max(1, Math.floor(share * p.maxInFlight));
      const inFlight = state.tenant(tenantId).inFlight;
      if (inFlight < limit) return { admit: true, reason: '' };
      if (p.allowBorrowing && state.globalInFlight < p.maxInFlight) {
        return { admit: true, reason: 'tenant-quota: borrowed idle capacity' };
      }
      return {
        admit: false,
        reason: `tenant-quota: tenant=${tenantId} in_flight=${inFlight} limit=${limit}`,
      };
    },
  };
}
