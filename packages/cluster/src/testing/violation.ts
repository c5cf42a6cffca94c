/** One broken invariant: which, what was found, and where when it is about one request or instant. */
export interface Violation {
  /** `INV-1` .. `INV-9`, `INV-PD-2`.., `KV-TIER`, `AUTOSCALE`, ... */
  invariant: string;
  message: string;
  /** The request (id) it is about, if one. */
  request?: string;
  /** Simulation time, µs, if the violation happened at one instant. */
  atUs?: number;
}

/** What {@link checkInvariants} found: `ok` when nothing. */
export interface InvariantReport {
  ok: boolean;
  violations: Violation[];
  /** Names of the invariant groups that were checked (what the inputs made checkable). */
  checked: string[];
}

/** Thrown by `assertInvariants`; its message names every violation, one a line. */
export class InvariantCheckError extends Error {
  readonly violations: readonly Violation[];
  constructor(violations: readonly Violation[]) {
    const lines = violations.slice(0, 20).map((v) => `  ${v.invariant}: ${v.message}`);
    if (violations.length > 20) lines.push(`  ... and ${violations.length - 20} more`);
    super(`${violations.length} invariant violation${violations.length === 1 ? '' : 's'}:\n${lines.join('\n')}`);
    this.name = 'InvariantCheckError';
    this.violations = violations;
  }
}

/** Collects violations; `check(cond, ...)` records one when `cond` is false. */
export class ViolationList {
  readonly items: Violation[] = [];
  add(invariant: string, message: string, where: { request?: string; atUs?: number } = {}): void {
    this.items.push({ invariant, message, ...where });
  }
  check(ok: boolean, invariant: string, message: () => string, where: { request?: string; atUs?: number } = {}): void {
    if (!ok) this.add(invariant, message(), where);
  }
}
