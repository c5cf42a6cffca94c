// Unit tests of the long-prompt P/D decider, on frozen views typed by the @blis/policies contract.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeciderFactory, RequestView, RouterState } from '@blis/policies';
import { createPolicyRegistry, policyContext } from '@blis/policies';
import factory, { createLongPromptDecider, DECIDER_NAME } from '../src/long-prompt-decider.js';

function request(inputTokens: number): RequestView {
  return Object.freeze({
    index: 0,
    id: '0',
    arrivalUs: 0,
    inputTokens,
    clientId: '',
    tenantId: '',
    sloClass: '',
    sessionId: '',
    roundIndex: 0,
    prefixGroup: '',
    streaming: false,
    blockHashes: Object.freeze([]),
    priority: 0,
    sloTargetUs: 0,
  });
}

// The decider ignores the decode pool; an empty one shows it never reads it.
const state: RouterState = Object.freeze({
  nowUs: 0,
  instances: Object.freeze([]),
  globalInFlight: 0,
  recentRate: 0,
  saturation: 0,
  tenant: (tenantId: string) => ({ tenantId, requests: 0, inFlight: 0, recentRate: 0 }),
});

describe(DECIDER_NAME, () => {
  it('is the default export, typed as a DeciderFactory', () => {
    const f: DeciderFactory = factory;
    assert.equal(f, createLongPromptDecider);
    assert.equal(f(policyContext()).name, DECIDER_NAME);
  });

  it('disaggregates prompts longer than 512 tokens by default, strictly', () => {
    const d = createLongPromptDecider(policyContext());
    assert.deepEqual(d.decide(request(513), state, 0), { disaggregate: true, reason: 'long-prompt:disaggregate' });
    assert.deepEqual(d.decide(request(512), state, 0), { disaggregate: false, reason: 'long-prompt:local' });
    assert.equal(d.decide(request(0), state, 0).disaggregate, false);
  });

  it('takes minPromptTokens as a parameter', () => {
    const d = createLongPromptDecider(policyContext({ params: { minPromptTokens: 0 } }));
    assert.equal(d.decide(request(1), state, 0).disaggregate, true);
    assert.equal(d.decide(request(0), state, 0).disaggregate, false);
  });

  it('validates its parameters', () => {
    const make = (params: Record<string, unknown>) => () => createLongPromptDecider(policyContext({ params }));
    assert.throws(make({ minPromptTokens: -1 }), /minPromptTokens must be an integer >= 0, found -1/);
    assert.throws(make({ minPromptTokens: 1.5 }), /minPromptTokens/);
    assert.throws(make({ minPrompt: 5 }), /unknown parameter "minPrompt"/);
  });

  it('can be registered by name next to the built-in deciders', () => {
    const registry = createPolicyRegistry();
    registry.registerDecider(DECIDER_NAME, createLongPromptDecider);
    assert.deepEqual(registry.names('decider'), ['always', DECIDER_NAME, 'never', 'prefix-threshold']);
    const d = registry.createDecider(DECIDER_NAME, policyContext({ params: { minPromptTokens: 100 } }));
    assert.equal(d.decide(request(101), state, 0).disaggregate, true);
  });
});
