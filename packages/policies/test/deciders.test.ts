import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDecider,
  createPolicyRegistry,
  DEFAULT_POLICY_NAMES,
  type DeciderFactory,
  DuplicatePolicyError,
  listPolicies,
  PolicyParamsError,
  policyContext,
  registerDecider,
  type RouterState,
  UnknownPolicyError,
} from '../src/index.js';
import { createAlwaysDecider, createNeverDecider, createPrefixThresholdDecider } from '../src/internal.js';
import { request, routerState, snapshots } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** Hashes 1..n: a prompt of `n` full blocks. */
const hashes = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** A decode pool whose pod at position 1 holds the first `cachedBlocks` blocks of the prompt. */
function poolCaching(cachedBlocks: number): RouterState {
  return routerState(snapshots({ cached: [] }, { cached: hashes(cachedBlocks) }));
}

describe('never and always', () => {
  it('answer the same for every request', () => {
    const state = poolCaching(3);
    for (const inputTokens of [0, 1, 1000]) {
      const req = request({ inputTokens, blockHashes: hashes(3) });
      expect(createNeverDecider().decide(req, state, 1)).toEqual({
        disaggregate: false,
        reason: 'never',
      });
      expect(createAlwaysDecider().decide(req, state, 0)).toEqual({
        disaggregate: true,
        reason: 'always',
      });
    }
  });

  it('reject parameters, having none', () => {
    expect(() => createDecider('always', policyContext({ params: { threshold: 1 } }))).toThrow(
      /invalid params for P\/D decider "always": params\.threshold: unknown field/,
    );
  });
});

describe('prefix-threshold', () => {
  // BLIS's reference: 1000-token prompt (62 full blocks of 16), threshold 16.
  const prompt = request({ inputTokens: 1000, blockHashes: hashes(62) });
  const decider = createPrefixThresholdDecider({ threshold: 16 }, 16);

  it('disaggregates when more than `threshold` prompt tokens are not cached on the decode pod', () => {
    // 61 cached blocks = 976 tokens: 24 left to prefill > 16.
    expect(decider.decide(prompt, poolCaching(61), 1)).toEqual({
      disaggregate: true,
      reason: 'prefix-threshold:disaggregate',
    });
    // 62 cached blocks = 992 tokens: 8 left <= 16.
    expect(decider.decide(prompt, poolCaching(62), 1)).toEqual({
      disaggregate: false,
      reason: 'prefix-threshold:local',
    });
  });

  it('reads the cache of the selected decode pod, not another one', () => {
    // Position 0 holds nothing: from there all 1000 tokens are uncached.
    expect(decider.decide(prompt, poolCaching(62), 0).disaggregate).toBe(true);
  });

  it('is strict: exactly `threshold` uncached tokens stays local', () => {
    const exact = request({ inputTokens: 64, blockHashes: hashes(4) });
    const zero = createPrefixThresholdDecider({ threshold: 0 }, 16);
    expect(zero.decide(exact, poolCaching(4), 1).disaggregate).toBe(false);
    expect(zero.decide(exact, poolCaching(3), 1).disaggregate).toBe(true);
    // 1000 - 61 * 16 = 24: the boundary at threshold 24 and 23.
    expect(
      createPrefixThresholdDecider({ threshold: 24 }).decide(prompt, poolCaching(61), 1),
    ).toMatchObject({ disaggregate: false });
    expect(
      createPrefixThresholdDecider({ threshold: 23 }).decide(prompt, poolCaching(61), 1),
    ).toMatchObject({ disaggregate: true });
  });

  it('stays local for an empty prompt or a selected position outside the pool', () => {
    expect(decider.decide(request({ inputTokens: 0 }), poolCaching(0), 1).disaggregate).toBe(false);
    for (const selected of [-1, 2, 0.5, Number.NaN]) {
      expect(decider.decide(prompt, poolCaching(0), selected)).toEqual({
        disaggregate: false,
        reason: 'prefix-threshold:no-decode-pod',
      });
    }
  });

  it('uses the block size of its factory context', () => {
    const big = createDecider('prefix-threshold', policyContext({ blockSizeTokens: 32 }));
    // 31 cached blocks of 32 = 992 tokens: 8 left. With 16-token blocks it would be 504.
    expect(big.decide(prompt, poolCaching(31), 1).disaggregate).toBe(false);
    expect(
      createDecider('prefix-threshold', policyContext()).decide(prompt, poolCaching(31), 1)
        .disaggregate,
    ).toBe(true);
  });

  it('defaults the threshold to 16', () => {
    const d = createDecider('prefix-threshold', policyContext());
    expect(d.name).toBe('prefix-threshold');
    expect(d.decide(prompt, poolCaching(61), 1).disaggregate).toBe(true);
    expect(d.decide(prompt, poolCaching(62), 1).disaggregate).toBe(false);
  });

  it('validates its parameters', () => {
    const make = (params: Record<string, unknown>) => () =>
      createDecider('prefix-threshold', policyContext({ params }));
    expect(make({ threshold: -1 })).toThrow(PolicyParamsError);
    expect(make({ threshold: -1 })).toThrow(
      /invalid params for P\/D decider "prefix-threshold": params\.threshold: expected an integer >= 0; found -1/,
    );
    expect(make({ threshold: 2.5 })).toThrow(
      /params\.threshold: expected an integer >= 0; found 2\.5/,
    );
    expect(make({ threshold: '16' })).toThrow(
      /params\.threshold: expected an integer >= 0; found "16"/,
    );
    expect(make({ treshold: 16 })).toThrow(/params\.treshold: unknown field/);
    expect(() => createPrefixThresholdDecider({}, 0)).toThrow(/blockSizeTokens/);
  });

  it('equals `inputTokens - cached * blockSize > threshold` for any prompt and cache', () => {
    fc.assert(
      fc.property(
        fc.record({
          blocks: fc.nat(80),
          partial: fc.nat(15),
          cachedFraction: fc.double({ min: 0, max: 1, noNaN: true }),
          threshold: fc.oneof(fc.constant(0), fc.nat(32), fc.nat(2000)),
          blockSize: fc.constantFrom(1, 16, 32),
          empty: fc.boolean(),
          // Half the cases put the threshold within 1 of the answer, where `>` differs from `>=`.
          nearShift: fc.option(fc.integer({ min: -1, max: 1 })),
        }),
        ({ blocks, partial, cachedFraction, blockSize, empty, nearShift, ...rest }) => {
          // A prompt of `blocks` full blocks plus a partial one; the pod holds a leading part.
          const inputTokens = empty ? 0 : blocks * blockSize + Math.min(partial, blockSize - 1);
          const fullBlocks = empty ? 0 : blocks;
          const cached = Math.floor(cachedFraction * fullBlocks);
          const threshold =
            nearShift === null
              ? rest.threshold
              : Math.max(0, inputTokens - cached * blockSize + nearShift);
          const req = request({ inputTokens, blockHashes: hashes(fullBlocks) });
          const d = createPrefixThresholdDecider({ threshold }, blockSize);
          const got = d.decide(req, poolCaching(cached), 1).disaggregate;
          const want = inputTokens > 0 && inputTokens - cached * blockSize > threshold;
          expect(got).toBe(want);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('the decider registry kind', () => {
  const pickEven: DeciderFactory = () => ({
    name: 'even-index',
    decide: (r) => ({ disaggregate: r.index % 2 === 0, reason: 'even-index' }),
  });

  it('lists the built-ins and defaults to never', () => {
    expect(listPolicies().decider).toEqual(['always', 'never', 'prefix-threshold']);
    expect(DEFAULT_POLICY_NAMES.decider).toBe('never');
    expect(createDecider('', policyContext()).name).toBe('never');
  });

  it('throws UnknownPolicyError listing the valid names', () => {
    let caught: unknown;
    try {
      createDecider('sometimes', policyContext());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UnknownPolicyError);
    const err = caught as UnknownPolicyError;
    expect(err.kind).toBe('decider');
    expect(err.validNames).toEqual(['always', 'never', 'prefix-threshold']);
    expect(err.message).toBe(
      'unknown P/D decider "sometimes"; valid: always, never, prefix-threshold',
    );
  });

  it('registers custom deciders per registry, with replace semantics', () => {
    const mine = createPolicyRegistry();
    mine.registerDecider('even-index', pickEven);
    const d = mine.createDecider('even-index', policyContext());
    const state = poolCaching(0);
    expect(d.decide(request({ index: 4 }), state, 0).disaggregate).toBe(true);
    expect(d.decide(request({ index: 3 }), state, 0).disaggregate).toBe(false);
    expect(mine.names('decider')).toContain('even-index');
    expect(createPolicyRegistry().has('decider', 'even-index')).toBe(false);

    expect(() => mine.registerDecider('even-index', pickEven)).toThrow(DuplicatePolicyError);
    expect(() => mine.registerDecider('even-index', pickEven)).toThrow(
      'P/D decider "even-index" is already registered; pass { replace: true } to override it',
    );
    mine.registerDecider('even-index', createAlwaysDecider, { replace: true });
    expect(mine.createDecider('even-index', policyContext()).name).toBe('always');
    // Built-ins can be replaced too, but only on purpose.
    expect(() => mine.registerDecider('never', pickEven)).toThrow(DuplicatePolicyError);
    expect(() => mine.registerDecider('bad name!', pickEven)).toThrow(/invalid/);
  });

  it('registerDecider and createDecider use the default registry', () => {
    registerDecider('deciders-test-even', pickEven);
    expect(listPolicies().decider).toContain('deciders-test-even');
    expect(createDecider('deciders-test-even', policyContext()).name).toBe('even-index');
    expect(() => registerDecider('deciders-test-even', pickEven)).toThrow(DuplicatePolicyError);
    registerDecider('deciders-test-even', createNeverDecider, { replace: true });
    expect(createDecider('deciders-test-even', policyContext()).name).toBe('never');
  });

  it('a registry without built-ins knows no deciders, not even the default', () => {
    const empty = createPolicyRegistry({ builtins: false });
    expect(empty.listPolicies().decider).toEqual([]);
    expect(() => empty.createDecider('', policyContext())).toThrow(
      'unknown P/D decider "never"; valid: ',
    );
  });
});
