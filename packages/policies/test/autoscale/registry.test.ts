import { describe, expect, it } from 'vitest';
import {
  type AutoScaleFactory,
  createAutoscaler,
  createPolicyRegistry,
  DEFAULT_POLICY_NAMES,
  DuplicatePolicyError,
  listPolicies,
  PolicyParamsError,
  policyContext,
  registerAutoscaler,
  UnknownPolicyError,
} from '../../src/index.js';
import { context } from './helpers.js';

describe('autoscaler registry', () => {
  it('lists the four built-ins', () => {
    expect(listPolicies().autoscaler).toEqual([
      'queue-depth',
      'target-utilization',
      'threshold',
      'wva-saturation',
    ]);
  });

  it('builds each by name with default params', () => {
    const registry = createPolicyRegistry();
    for (const name of registry.names('autoscaler')) {
      const policy = registry.createAutoscaler(name, policyContext());
      expect(policy.name).toBe(name);
      expect(policy.evaluate(context([{}])).delta).toBeTypeOf('number');
    }
  });

  it('gives wva-saturation for an empty name', () => {
    expect(DEFAULT_POLICY_NAMES.autoscaler).toBe('wva-saturation');
    expect(createAutoscaler('', policyContext()).name).toBe('wva-saturation');
  });

  it('refuses an unknown name, listing the valid ones', () => {
    const err = (() => {
      try {
        createAutoscaler('hpa', policyContext());
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UnknownPolicyError);
    expect((err as Error).message).toBe(
      'unknown autoscaler "hpa"; valid: queue-depth, target-utilization, threshold, wva-saturation',
    );
  });

  it('reports bad params naming the param, for every built-in', () => {
    const bad: Record<string, Record<string, unknown>> = {
      'wva-saturation': { scale_up_threshold: -1 },
      threshold: { step: 0 },
      'target-utilization': { tolerance: 'none' },
      'queue-depth': { target_queue_depth: 0 },
    };
    for (const [name, params] of Object.entries(bad)) {
      const field = Object.keys(params)[0]!;
      expect(() => createAutoscaler(name, policyContext({ params }))).toThrow(PolicyParamsError);
      expect(() => createAutoscaler(name, policyContext({ params }))).toThrow(
        new RegExp(`^invalid params for autoscaler "${name}": params\\.${field}: `),
      );
      // Typos fail loudly too.
      expect(() => createAutoscaler(name, policyContext({ params: { typo: 1 } }))).toThrow(
        /params\.typo: unknown field/,
      );
    }
  });

  it('takes custom autoscalers, in its own registry or the default one', () => {
    const always: AutoScaleFactory = (ctx) => ({
      name: 'always-up',
      evaluate: () => ({ delta: Number(ctx.params.by ?? 1), reason: 'always up' }),
    });
    const registry = createPolicyRegistry({ builtins: false });
    expect(registry.names('autoscaler')).toEqual([]);
    registry.registerAutoscaler('always-up', always);
    expect(registry.createAutoscaler('always-up', policyContext({ params: { by: 2 } })).evaluate(context([])).delta).toBe(2);
    expect(() => registry.registerAutoscaler('always-up', always)).toThrow(DuplicatePolicyError);

    registerAutoscaler('autoscale-test-always-up', always);
    expect(listPolicies().autoscaler).toContain('autoscale-test-always-up');
    expect(createAutoscaler('autoscale-test-always-up', policyContext()).name).toBe('always-up');
  });
});
