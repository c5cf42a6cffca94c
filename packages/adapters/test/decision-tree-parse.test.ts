import { describe, expect, it } from 'vitest';
import { DecisionTreeError, type DecisionTreeIssue, isDecisionTreeDocument, parseDecisionTree } from '../src/index.js';

/** The issues parseDecisionTree throws for `text`, as `line path: expected ..., found ...`. */
function issuesOf(text: string, kind?: 'admission' | 'priority' | 'routing' | 'autoscaler'): string[] {
  try {
    parseDecisionTree(text, kind ? { kind } : {});
  } catch (e) {
    expect(e).toBeInstanceOf(DecisionTreeError);
    return (e as DecisionTreeError).issues.map((i: DecisionTreeIssue) => `${i.line ?? '-'} ${i.path}: expected ${i.expected}, found ${i.found}`);
  }
  throw new Error('parsed without error');
}

describe('parseDecisionTree', () => {
  it('returns the validated tree, with defaults for linear priorities and the file name', () => {
    const t = parseDecisionTree('kind: priority\ndescription: d\ntree:\n  if: {signal: request.streaming, op: "==", value: true}\n  then: {priority: {signal: request.input_tokens}}\n  else: {priority: 2}\n', { file: 'p.yaml', kind: 'priority' });
    expect(t).toEqual({
      kind: 'priority',
      description: 'd',
      file: 'p.yaml',
      // biome-ignore lint/suspicious/noThenProperty: a branch's own key (a non-callable then is no thenable)
      tree: { if: { signal: 'request.streaming', op: '==', value: true }, then: { priority: { signal: 'request.input_tokens', scale: 1, offset: 0 } }, else: { priority: 2 } },
    });
  });

  it('reads JSON too (YAML is a superset)', () => {
    expect(parseDecisionTree('{"kind": "admission", "tree": {"reject": "no"}}').tree).toEqual({ reject: 'no' });
  });

  it('reports YAML syntax errors with their line', () => {
    const got = issuesOf('kind: routing\ntree:\n  route: least\n  by: [instance.load\n');
    expect(got.length).toBeGreaterThan(0);
    expect(got[0]).toMatch(/^\d+ \(document\): expected valid YAML( \(.*\))?, found /);
    expect(issuesOf('kind: routing\nkind: admission\ntree: {admit: true}\n')[0]).toMatch(/^2 \(document\): expected valid YAML \(each key once in a mapping\), found "kind: admission" at column 1$/);
  });

  it('reports every problem at once, each with its path and line', () => {
    const text = `kind: routing
tree:
  if: {signal: request.output_tokens, op: ">", value: 2048}
  then: {route: least, by: instance.kv_utilisation}
  else:
    if: {signal: request.slo_class, op: "<", value: critical}
    then: {route: weighted, scorers: {prefix-afinity: 3, queue-depth: -2}}
    else:
      if:
        all:
          - {signal: instance.queue_depth, op: ">", value: 1}
          - {signal: request.streaming, op: "==", value: "yes"}
      then: {admit: true}
      else: {route: least, by: instance.queue_depth, where: {signal: request.slo_class, op: in, value: [gold]}, extra: 1}
`;
    const got = issuesOf(text);
    expect(got).toHaveLength(10);
    expect(got[0]).toMatch(/^3 tree\.if\.signal: expected a routing signal: request\.input_tokens, .*global\.avg_kv_utilization, found "request\.output_tokens"$/);
    expect(got[0]).not.toContain('instance.');
    expect(got[1]).toMatch(/^4 tree\.then\.by: expected an instance signal: instance\.index, .*, found "instance\.kv_utilisation"$/);
    expect(got[2]).toBe('6 tree.else.if.op: expected an operator for the string signal request.slo_class: == != in, found "<"');
    expect(got[3]).toMatch(/^7 tree\.else\.then\.scorers\.prefix-afinity: expected a built-in scorer: .*prefix-affinity.*, found the scorer "prefix-afinity"$/);
    expect(got[4]).toBe('7 tree.else.then.scorers.queue-depth: expected a finite weight > 0, found -2');
    expect(got[5]).toMatch(/^11 tree\.else\.else\.if\.all\[0\]\.signal: expected a routing signal \(instance signals belong in a routing leaf's by and where\): .*, found "instance\.queue_depth"$/);
    expect(got[6]).toBe('12 tree.else.else.if.all[1].value: expected true or false (request.streaming is a boolean), found "yes"');
    expect(got[7]).toMatch(/^13 tree\.else\.else\.then: expected a routing leaf .* \(this is a routing tree\), found an admission leaf \(admit\)$/);
    expect(got[8]).toBe('14 tree.else.else.else.extra: expected one of the keys route, by, where, found the key "extra"');
    expect(got[9]).toBe('14 tree.else.else.else.where.value[0]: expected one of "critical", "standard", "sheddable", "batch", "background", "" (the values of request.slo_class), found "gold"');
  });

  it('checks the document: kind, tree, stray keys, and the kind the caller wants', () => {
    expect(issuesOf('- a\n- b\n')).toEqual(['1 (document): expected a map with kind and tree, found a list of 2 item(s)']);
    expect(issuesOf('kind: scheduler\ntree: {admit: true}\nextra: 1\n')).toEqual([
      '3 extra: expected one of the keys kind, tree, description, found the key "extra"',
      '1 kind: expected one of admission, priority, routing, autoscaler, found "scheduler"',
    ]);
    expect(issuesOf('kind: admission\ndescription: [x]\ntree: {admit: false}\n')).toEqual([
      '2 description: expected a string, found a list of 1 item(s)',
      '3 tree.admit: expected true (to refuse, write {reject: "<reason>"}), found false',
    ]);
    expect(issuesOf('kind: admission\n')).toEqual(['1 tree: expected a branch {if, then, else} or an admission leaf {admit: true} or {reject: "<reason>"}, found nothing (the field is missing)']);
    expect(issuesOf('kind: admission\ntree: {admit: true}\n', 'routing')).toEqual(['1 kind: expected routing (a routing tree is wanted here), found "admission"']);
  });

  it('checks branches and conditions', () => {
    expect(issuesOf('kind: admission\ntree:\n  if: {signal: request.input_tokens, op: "~", value: 1}\n  then: {admit: true}\n')).toEqual([
      '3 tree.if.op: expected an operator: < <= > >= == != in, found "~"',
      '3 tree.else: expected a branch {if, then, else} or an admission leaf {admit: true} or {reject: "<reason>"}, found nothing (the field is missing)',
    ]);
    expect(issuesOf('kind: admission\ntree:\n  if: {all: []}\n  then: {admit: true}\n  else: {admit: true}\n  when: 1\n')).toEqual([
      '6 tree.when: expected one of the keys if, then, else, found the key "when"',
      '3 tree.if.all: expected a non-empty list of conditions, found an empty list',
    ]);
    expect(issuesOf('kind: admission\ntree:\n  if: {signal: request.input_tokens, any: []}\n  then: {admit: true}\n  else: {admit: true}\n')[0]).toBe(
      '3 tree.if: expected a condition {signal, op, value}, {all: [...]}, {any: [...]} or {not: ...} (exactly one of signal, all, any, not), found the keys signal, any',
    );
    expect(issuesOf('kind: admission\ntree:\n  if: {not: {signal: request.input_tokens, op: in, value: 3}}\n  then: {admit: true}\n  else: {admit: true}\n')).toEqual([
      '3 tree.if.not.value: expected a non-empty list of number values (op "in"), found 3',
    ]);
    expect(issuesOf('kind: admission\ntree:\n  if: {signal: request.input_tokens, op: "<"}\n  then: {admit: true}\n  else: {admit: true}\n')).toEqual([
      '3 tree.if.value: expected a finite number (request.input_tokens is a number), found nothing (the field is missing)',
    ]);
    expect(issuesOf('kind: admission\ntree:\n  if: {signal: request.tenant_id, op: "==", value: 7}\n  then: {admit: true}\n  else: {admit: true}\n')).toEqual([
      '3 tree.if.value: expected a string (request.tenant_id is a string; quote numbers), found 7',
    ]);
    expect(issuesOf('kind: admission\ntree:\n  if: {signal: request.input_tokens, op: ">", value: .inf}\n  then: {admit: true}\n  else: {admit: true}\n')).toEqual([
      '3 tree.if.value: expected a finite number (request.input_tokens is a number), found .inf',
    ]);
  });

  it('checks the leaves of each kind', () => {
    expect(issuesOf('kind: admission\ntree: {admit: false}\n')).toEqual(['2 tree.admit: expected true (to refuse, write {reject: "<reason>"}), found false']);
    expect(issuesOf('kind: admission\ntree: {reject: ""}\n')).toEqual(['2 tree.reject: expected a non-empty reason string, found ""']);
    expect(issuesOf('kind: admission\ntree: {admit: true, reject: x}\n')).toEqual([
      '2 tree: expected an admission leaf {admit: true} or {reject: "<reason>"}, one action per leaf, found the keys admit, reject',
    ]);
    expect(issuesOf('kind: priority\ntree: {priority: high}\n')).toEqual(['2 tree.priority: expected a finite number or {signal, scale, offset}, found "high"']);
    expect(issuesOf('kind: priority\ntree: {priority: {signal: global.in_flight, scale: x}}\n')).toEqual([
      '2 tree.priority.scale: expected a finite number, found "x"',
    ]);
    expect(issuesOf('kind: priority\ntree: {priority: {signal: request.slo_class}}\n')[0]).toMatch(/^2 tree\.priority\.signal: expected a number priority signal: request\.input_tokens, .*, found "request\.slo_class"$/);
    expect(issuesOf('kind: priority\ntree: {priority: {signal: global.in_flight}}\n')[0]).toMatch(/found "global\.in_flight"$/);
    expect(issuesOf('kind: routing\ntree: {route: random}\n')).toEqual(['2 tree.route: expected one of least, most, weighted, found "random"']);
    expect(issuesOf('kind: routing\ntree: {route: least}\n')).toEqual(['2 tree.by: expected an instance signal name, found nothing (the field is missing)']);
    expect(issuesOf('kind: routing\ntree: {route: weighted, scorers: {}}\n')[0]).toMatch(/^2 tree\.scorers: expected a non-empty map of scorer weights/);
    expect(issuesOf('kind: autoscaler\ntree: {scale: 1.5}\n')).toEqual(['2 tree.scale: expected an integer replica delta, found 1.5']);
    expect(issuesOf('kind: autoscaler\ntree: {target: -1}\n')).toEqual(['2 tree.target: expected a whole number of replicas (>= 0), found -1']);
    expect(issuesOf('kind: autoscaler\ntree: {route: least, by: instance.load}\n')).toEqual([
      '2 tree: expected an autoscaler leaf {scale: <integer delta>} or {target: <replicas>} (this is an autoscaler tree), found a routing leaf (route)',
    ]);
    expect(issuesOf('kind: autoscaler\ntree: {hold: true}\n')[0]).toBe(
      '2 tree: expected a branch {if, then, else} or an autoscaler leaf {scale: <integer delta>} or {target: <replicas>}, found a mapping with "hold"',
    );
  });

  it('keeps signals to their kind: no request in an autoscaler, no router state in a priority tree', () => {
    expect(issuesOf('kind: autoscaler\ntree:\n  if: {signal: request.input_tokens, op: ">", value: 1}\n  then: {scale: 1}\n  else: {scale: 0}\n')[0]).toMatch(
      /^3 tree\.if\.signal: expected an autoscaler signal: group\.pool, .*, found "request\.input_tokens"$/,
    );
    expect(issuesOf('kind: priority\ntree:\n  if: {signal: global.in_flight, op: ">", value: 1}\n  then: {priority: 1}\n  else: {priority: 0}\n')[0]).toMatch(/found "global\.in_flight"$/);
    expect(issuesOf('kind: admission\ntree:\n  if: {signal: request.priority, op: ">", value: 1}\n  then: {admit: true}\n  else: {admit: true}\n')[0]).toMatch(/found "request\.priority"$/);
  });

  it('formats the error message with the file', () => {
    try {
      parseDecisionTree('kind: routing\ntree: {route: least, by: nope}\n', { file: 't.yaml' });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toMatch(/^t\.yaml:2 tree\.by: expected an instance signal: .*, found "nope"$/);
    }
  });

  it('isDecisionTreeDocument: a map with a top-level tree', () => {
    expect(isDecisionTreeDocument({ kind: 'routing', tree: {} })).toBe(true);
    expect(isDecisionTreeDocument({ tree: null })).toBe(true);
    expect(isDecisionTreeDocument({ routing: {} })).toBe(false);
    expect(isDecisionTreeDocument([{ tree: 1 }])).toBe(false);
    expect(isDecisionTreeDocument(null)).toBe(false);
    expect(isDecisionTreeDocument('tree')).toBe(false);
  });
});
