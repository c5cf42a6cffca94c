/** The families of named policies the registry knows. */
export type PolicyKind = 'admission' | 'priority' | 'routing' | 'scheduler' | 'scorer' | 'decider' | 'autoscaler';

const KIND_LABEL: Record<PolicyKind, string> = {
  admission: 'admission policy',
  priority: 'priority policy',
  routing: 'routing policy',
  scheduler: 'scheduler',
  scorer: 'scorer',
  decider: 'P/D decider',
  autoscaler: 'autoscaler',
};

/** Human label for a policy kind ("routing policy", "scorer", ...), used in messages. */
export function policyKindLabel(kind: PolicyKind): string {
  return KIND_LABEL[kind];
}

/** A policy name that is not registered. `validNames` is sorted. */
export class UnknownPolicyError extends Error {
  override readonly name = 'UnknownPolicyError';
  readonly kind: PolicyKind;
  readonly policyName: string;
  readonly validNames: readonly string[];

  constructor(kind: PolicyKind, policyName: string, validNames: readonly string[]) {
    super(`unknown ${KIND_LABEL[kind]} "${policyName}"; valid: ${validNames.join(', ')}`);
    this.kind = kind;
    this.policyName = policyName;
    this.validNames = validNames;
  }
}

/** One problem with a policy's parameters; `path` is relative to the params object. */
export interface PolicyParamIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Parameters that failed validation. The message names every offending field. */
export class PolicyParamsError extends Error {
  override readonly name = 'PolicyParamsError';
  readonly kind: PolicyKind;
  readonly policyName: string;
  readonly issues: readonly PolicyParamIssue[];

  constructor(kind: PolicyKind, policyName: string, issues: readonly PolicyParamIssue[]) {
    const lines = issues.map((i) => `${formatParamPath(i.path)}: ${i.message}`);
    super(`invalid params for ${KIND_LABEL[kind]} "${policyName}": ${lines.join('; ')}`);
    this.kind = kind;
    this.policyName = policyName;
    this.issues = issues;
  }
}

/** A second registration under a name that is already taken. */
export class DuplicatePolicyError extends Error {
  override readonly name = 'DuplicatePolicyError';
  readonly kind: PolicyKind;
  readonly policyName: string;

  constructor(kind: PolicyKind, policyName: string) {
    super(
      `${KIND_LABEL[kind]} "${policyName}" is already registered; pass { replace: true } to override it`,
    );
    this.kind = kind;
    this.policyName = policyName;
  }
}

/** `['scorers', 0, 'weight']` -> `params.scorers[0].weight`. */
export function formatParamPath(path: readonly (string | number)[], root = 'params'): string {
  let out = root;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out;
}

/**
 * A policy misbehaved during a run: it threw, returned something outside its contract (an
 * instance out of range, a NaN score), wrote to a read-only view, or overran its time budget.
 * Carries who (kind, name, and `source`, e.g. the module path it came from) and which decision.
 * Input, not a simulator bug: the CLI reports it with exit code 2.
 */
export class PolicyError extends Error {
  override readonly name = 'PolicyError';
  readonly kind: PolicyKind;
  readonly policyName: string;
  /** Where the policy came from (a module path), when it was loaded from one. */
  readonly source: string | undefined;
  /** The method that was running: `route`, `admit`, `score`, ... */
  readonly method: string;
  /** The decision: which request, at what simulated time (e.g. `request 17 ("r17") at 1200 µs`). */
  readonly context: string;
  /** What went wrong, in words. */
  readonly problem: string;

  constructor(init: { kind: PolicyKind; policyName: string; source?: string; method: string; context: string; problem: string; cause?: unknown }) {
    const who = `${KIND_LABEL[init.kind]} "${init.policyName}"${init.source !== undefined ? ` (${init.source})` : ''}`;
    super(`${who}: ${init.method}() for ${init.context}: ${init.problem}`, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.kind = init.kind;
    this.policyName = init.policyName;
    this.source = init.source;
    this.method = init.method;
    this.context = init.context;
    this.problem = init.problem;
  }
}
