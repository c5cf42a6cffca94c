import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazySchema } from '../src/lazy-schema.js';
import { createPolicyBundleSchema, policyBundleSchema } from '../src/policy-bundle-schema.js';
import { tenantQuotaParamsSchema } from '../src/admission/tenant-quota.js';

describe('lazySchema', () => {
  it('builds its schema at the first parse, once', () => {
    let built = 0;
    const schema = lazySchema(() => {
      built++;
      return z.strictObject({ n: z.number().int() });
    });
    const holder = z.strictObject({ inner: schema.optional() });
    expect(built).toBe(0);
    expect(holder.safeParse({}).success).toBe(true);
    expect(schema.parse({ n: 3 })).toEqual({ n: 3 });
    expect(schema.safeParse({ n: 1.5 }).success).toBe(false);
    expect(built).toBe(1);
  });

  it('reports the issues of the schema it wraps, paths included', () => {
    const build = () => z.strictObject({ a: z.array(z.string().min(2)), b: z.number().positive().default(1) });
    const lazy = lazySchema(build);
    for (const input of [{ a: ['x', 'yy', 3] }, { a: [], b: -1, c: 0 }, null, { a: ['ok'], b: 2 }]) {
      const want = build().safeParse(input);
      const got = lazy.safeParse(input);
      expect(got.success).toBe(want.success);
      if (want.success) expect(got.data).toEqual(want.data);
      else expect(got.error?.issues).toEqual(want.error.issues);
    }
  });

  it("leaves the built-in schemas' answers as they were: a refinement over a lazy object, a bundle over lazy sections", () => {
    const quota = tenantQuotaParamsSchema.safeParse({ maxInFlight: 4, defaultShare: 0.5, tenantCount: 2 });
    expect(quota.success).toBe(false);
    expect(quota.error?.issues.map((i) => [i.path, i.message])).toEqual([[['tenantCount'], 'give defaultShare or tenantCount, not both']]);
    const bundle = { admission: { policy: 'nope' }, routing: null, instance_lifecycle: { drain_policy: 'WAIT' } };
    const a = policyBundleSchema.safeParse(bundle);
    const b = createPolicyBundleSchema().safeParse(bundle);
    expect(a.error?.issues).toEqual(b.error?.issues);
    expect(a.error?.issues.map((i) => i.path)).toEqual([['admission', 'policy']]);
    expect(policyBundleSchema.parse({ instance_lifecycle: { drain_policy: 'WAIT' } })).toEqual(createPolicyBundleSchema().parse({ instance_lifecycle: { drain_policy: 'WAIT' } }));
  });
});
