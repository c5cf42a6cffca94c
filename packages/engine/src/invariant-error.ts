/** Raised by the invariant monitor; names the invariant so a failing property test says which. */
export class InvariantViolation extends Error {
  readonly invariant: string;
  constructor(invariant: string, detail: string) {
    super(`${invariant} violated: ${detail}`);
    this.name = 'InvariantViolation';
    this.invariant = invariant;
  }
}
