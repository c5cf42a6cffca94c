import { type AdmissionPolicy, type AutoScalePolicy, createRoutingPolicy, policyContext, type PriorityPolicy, type RoutingPolicy } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import { DECISION_TREE_SIGNALS, type DecisionTreeKind, decisionTreePolicyFactory, parseDecisionTree } from '../src/index.js';
import { emptyEnv, SIGNAL_GETTERS } from '../src/decision-tree/signal-getters.js';
import { instance, replica, request, scaleContext, state } from './decision-tree-views.js';

function build<P>(yaml: string, numInstances = 3): P {
  return decisionTreePolicyFactory(parseDecisionTree(yaml))(policyContext({ numInstances })) as P;
}

/** A routing tree choosing instance 1 when `cond` holds and instance 0 otherwise. */
function routeIf(cond: string): RoutingPolicy {
  return build<RoutingPolicy>(`kind: routing
tree:
  if: ${cond}
  then: {route: most, by: instance.index}
  else: {route: least, by: instance.index}
`, 2);
}
const two = state([instance(0), instance(1)], { globalInFlight: 5 });
const holds = (p: RoutingPolicy, r = request()) => p.route(r, two).instance === 1;

describe('decision-tree decisions', () => {
  it('admission: admits or rejects with the leaf reason, reading request, tenant and global signals', () => {
    const p = build<AdmissionPolicy>(`kind: admission
tree:
  if:
    all:
      - {signal: request.input_tokens, op: ">", value: 1000}
      - any: [{signal: global.in_flight, op: ">=", value: 8}, {signal: tenant.in_flight, op: ">", value: 2}]
  then: {reject: overloaded}
  else: {admit: true}
`);
    expect(p.name).toBe('decision-tree');
    const s = state([instance(0)], { globalInFlight: 8 });
    expect(p.admit(request({ inputTokens: 1001 }), s)).toEqual({ admit: false, reason: 'overloaded' });
    expect(p.admit(request({ inputTokens: 1000 }), s)).toEqual({ admit: true, reason: 'decision-tree tree.else' });
    expect(p.admit(request({ inputTokens: 5000 }), state([instance(0)], { globalInFlight: 7 })).admit).toBe(true);
    expect(p.admit(request({ inputTokens: 5000 }), state([instance(0)], { globalInFlight: 7, tenantInFlight: 3 })).admit).toBe(false);
  });

  it('priority: constants and linear forms; time-dependent exactly when it reads request.age_us', () => {
    const p = build<PriorityPolicy>(`kind: priority
tree:
  if: {signal: request.slo_class, op: "==", value: critical}
  then: {priority: 100}
  else: {priority: {signal: request.age_us, scale: 1.0e-6, offset: 10}}
`);
    expect(p.timeDependent).toBe(true);
    expect(p.priority(request({ sloClass: 'critical' }), 5e6)).toBe(100);
    // 10 + (7e6 - 2e6) µs * 1e-6 = 15
    expect(p.priority(request({ arrivalUs: 2e6 }), 7e6)).toBe(15);
    const q = build<PriorityPolicy>('kind: priority\ntree: {priority: {signal: request.input_tokens, scale: -0.01}}\n');
    expect(q.timeDependent).toBe(false);
    expect(q.priority(request({ inputTokens: 300 }), 0)).toBe(-3);
  });

  it('routing least/most: ties go to the lowest position; where filters, and falls back to all when none passes', () => {
    const xs = [instance(0, { queueDepth: 3 }), instance(1, { queueDepth: 1, kvUtilization: 0.95 }), instance(2, { queueDepth: 1 }), instance(3, { queueDepth: 3 })];
    const s = state(xs);
    expect(build<RoutingPolicy>('kind: routing\ntree: {route: least, by: instance.queue_depth}\n').route(request(), s)).toEqual({ instance: 1, reason: 'decision-tree tree' });
    expect(build<RoutingPolicy>('kind: routing\ntree: {route: most, by: instance.queue_depth}\n').route(request(), s).instance).toBe(0);
    const filtered = build<RoutingPolicy>('kind: routing\ntree: {route: least, by: instance.queue_depth, where: {signal: instance.kv_utilization, op: "<", value: 0.9}}\n');
    expect(filtered.route(request(), s).instance).toBe(2);
    const none = build<RoutingPolicy>('kind: routing\ntree: {route: most, by: instance.queue_depth, where: {signal: instance.kv_utilization, op: ">", value: 0.99}}\n');
    expect(none.route(request(), s).instance).toBe(0);
  });

  it('routing by prefix hits reads each instance cache against the request', () => {
    const s = state([instance(0, { cached: [1] }), instance(1, { cached: [1, 2, 3] }), instance(2, { cached: [1, 2] })]);
    const p = build<RoutingPolicy>('kind: routing\ntree: {route: most, by: instance.prefix_hit_ratio}\n');
    expect(p.route(request({ blockHashes: [1, 2, 3, 4] }), s).instance).toBe(1);
    expect(p.route(request({ blockHashes: [] }), s).instance).toBe(0);
  });

  it('routing weighted delegates to the built-in weighted routing with the same scorers', () => {
    const xs = [instance(0, { queueDepth: 4, kvUtilization: 0.2 }), instance(1, { queueDepth: 1, kvUtilization: 0.7 }), instance(2, { queueDepth: 2, kvUtilization: 0.1 })];
    const tree = build<RoutingPolicy>('kind: routing\ntree:\n  if: {signal: request.priority, op: ">", value: 5}\n  then: {route: least, by: instance.index}\n  else: {route: weighted, scorers: {queue-depth: 1, kv-utilization: 3}}\n');
    const builtin = createRoutingPolicy('weighted', policyContext({ numInstances: 3, params: { scorers: 'queue-depth:1,kv-utilization:3' } }));
    const s = state(xs);
    const d = tree.route(request(), s);
    expect(d.instance).toBe(builtin.route(request(), s).instance);
    expect(d.instance).toBe(2);
    expect(d.reason).toBe('decision-tree tree.else');
    expect(Object.keys(d.breakdown ?? {})).toEqual(['queue-depth', 'kv-utilization']);
    expect(tree.route(request({ priority: 6 }), s).instance).toBe(0);
  });

  it.each([
    ['<', 5, [4], [5, 6]],
    ['<=', 5, [4, 5], [6]],
    ['>', 5, [6], [4, 5]],
    ['>=', 5, [5, 6], [4]],
    ['==', 5, [5], [4, 6]],
    ['!=', 5, [4, 6], [5]],
    ['in', [4, 6], [4, 6], [5]],
  ] as const)('number op %s %j', (op, value, yes, no) => {
    const p = routeIf(`{signal: request.input_tokens, op: "${op}", value: ${JSON.stringify(value)}}`);
    for (const n of yes) expect(holds(p, request({ inputTokens: n })), `${n}`).toBe(true);
    for (const n of no) expect(holds(p, request({ inputTokens: n })), `${n}`).toBe(false);
  });

  it('string and boolean ops', () => {
    expect(holds(routeIf('{signal: request.slo_class, op: "==", value: batch}'), request({ sloClass: 'batch' }))).toBe(true);
    expect(holds(routeIf('{signal: request.slo_class, op: "!=", value: batch}'), request({ sloClass: 'batch' }))).toBe(false);
    const inList = routeIf('{signal: request.tenant_id, op: in, value: [a, b]}');
    expect(holds(inList, request({ tenantId: 'b' }))).toBe(true);
    expect(holds(inList, request({ tenantId: 'c' }))).toBe(false);
    expect(holds(routeIf('{signal: request.streaming, op: "==", value: true}'), request({ streaming: true }))).toBe(true);
    expect(holds(routeIf('{signal: request.streaming, op: "!=", value: true}'), request({ streaming: true }))).toBe(false);
  });

  it('combinators all, any, not (nested)', () => {
    const small = '{signal: request.input_tokens, op: "<", value: 10}';
    const gold = '{signal: request.tenant_id, op: "==", value: gold}';
    const allP = routeIf(`{all: [${small}, ${gold}]}`);
    const anyP = routeIf(`{any: [${small}, ${gold}]}`);
    const notP = routeIf(`{not: {any: [${small}, ${gold}]}}`);
    const cases = [
      [request({ inputTokens: 5, tenantId: 'gold' }), true, true],
      [request({ inputTokens: 5, tenantId: 'x' }), false, true],
      [request({ inputTokens: 50, tenantId: 'gold' }), false, true],
      [request({ inputTokens: 50, tenantId: 'x' }), false, false],
    ] as const;
    for (const [r, all, any] of cases) {
      expect(holds(allP, r)).toBe(all);
      expect(holds(anyP, r)).toBe(any);
      expect(holds(notP, r)).toBe(!any);
    }
  });

  it('global signals in routing conditions', () => {
    expect(holds(routeIf('{signal: global.in_flight, op: "==", value: 5}'))).toBe(true);
    expect(holds(routeIf('{signal: global.instances, op: "==", value: 2}'))).toBe(true);
  });

  it('autoscaler: scale is the delta, target the distance from the current replicas', () => {
    const p = build<AutoScalePolicy>(`kind: autoscaler
tree:
  if: {signal: load.avg_queue_depth, op: ">", value: 2}
  then: {target: 5}
  else:
    if: {signal: slo.attainment, op: "<", value: 0.9}
    then: {scale: 1}
    else: {scale: 0}
`);
    expect(p.evaluate(scaleContext({ avgQueueDepth: 3, replicas: [replica(0), replica(1)] }))).toEqual({ delta: 3, reason: 'decision-tree tree.then', signals: { target: 5 } });
    expect(p.evaluate(scaleContext({ sloAttainment: 0.5 })).delta).toBe(1);
    // No attainment (null) compares false.
    expect(p.evaluate(scaleContext({ sloAttainment: null })).delta).toBe(0);
    const q = build<AutoScalePolicy>('kind: autoscaler\ntree:\n  if: {signal: replicas.warming_up, op: ">", value: 0}\n  then: {scale: 0}\n  else: {scale: -1}\n');
    expect(q.evaluate(scaleContext({ replicas: [replica(0), replica(1, { state: 'warming-up' })] })).delta).toBe(0);
    expect(q.evaluate(scaleContext()).delta).toBe(-1);
  });

  it('every catalogued signal has a getter whose value has the declared type', () => {
    const env = emptyEnv();
    env.request = request({ blockHashes: [1, 2] });
    env.state = state([instance(0, { cached: [1] })]);
    env.instance = env.state.instances[0];
    env.ctx = scaleContext({ sloAttainment: 0.5, history: [{ nowUs: 0, replicas: 1, avgQueueDepth: 1, avgKvUtilization: 0.1, requestRate: 2 }] });
    for (const kind of Object.keys(DECISION_TREE_SIGNALS) as DecisionTreeKind[]) {
      for (const [name, signal] of Object.entries(DECISION_TREE_SIGNALS[kind])) {
        const get = SIGNAL_GETTERS[name];
        expect(get, name).toBeTypeOf('function');
        expect(typeof get(env), name).toBe(signal.type);
      }
    }
  });
});

describe('decision-tree LoRA signals', () => {
  it('routes to an instance holding the request adapter, by instance.adapter_resident', () => {
    const p = build<RoutingPolicy>(`kind: routing
tree:
  if: {signal: request.adapter, op: "!=", value: ""}
  then: {route: most, by: instance.adapter_resident}
  else: {route: least, by: instance.queue_depth}
`);
    const s = state([instance(0), instance(1, { residentAdapters: new Set(['sql']) }), instance(2, { residentAdapters: new Set(['chat']) })]);
    expect(p.route(request({ adapter: 'chat' }), s).instance).toBe(2);
    expect(p.route(request({ adapter: 'sql' }), s).instance).toBe(1);
    // A base-model request, and a cold adapter (resident nowhere: every instance scores 0).
    expect(p.route(request(), s).instance).toBe(0);
    expect(p.route(request({ adapter: 'legal' }), s).instance).toBe(0);
  });
});
