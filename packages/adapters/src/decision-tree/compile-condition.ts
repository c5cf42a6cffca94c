import { type Env, type Getter, SIGNAL_GETTERS } from './signal-getters.js';
import type { DecisionTreeComparison, DecisionTreeCondition } from './types.js';

/** A compiled condition: reads the Env the policy filled in, allocates nothing. */
export type Predicate = (e: Env) => boolean;

/** The getter of a validated signal name (the catalogue and the getters are checked to match). */
export function getterOf(signal: string): Getter {
  const g = SIGNAL_GETTERS[signal];
  if (g === undefined) throw new Error(`decision-tree: no getter for signal ${signal}`);
  return g;
}

/** Compiles a validated condition into a closure; the signal is looked up once, here. */
export function compileCondition(c: DecisionTreeCondition): Predicate {
  if ('all' in c) {
    const parts = c.all.map(compileCondition);
    return (e) => {
      for (let i = 0; i < parts.length; i++) if (!parts[i](e)) return false;
      return true;
    };
  }
  if ('any' in c) {
    const parts = c.any.map(compileCondition);
    return (e) => {
      for (let i = 0; i < parts.length; i++) if (parts[i](e)) return true;
      return false;
    };
  }
  if ('not' in c) {
    const inner = compileCondition(c.not);
    return (e) => !inner(e);
  }
  return compileComparison(c);
}

function compileComparison(c: DecisionTreeComparison): Predicate {
  const get = getterOf(c.signal);
  const v = c.value;
  switch (c.op) {
    case '<':
      return (e) => (get(e) as number) < (v as number);
    case '<=':
      return (e) => (get(e) as number) <= (v as number);
    case '>':
      return (e) => (get(e) as number) > (v as number);
    case '>=':
      return (e) => (get(e) as number) >= (v as number);
    case '==':
      return (e) => get(e) === v;
    case '!=':
      return (e) => get(e) !== v;
    case 'in': {
      const set = new Set<unknown>(v as readonly unknown[]);
      return (e) => set.has(get(e));
    }
  }
}
