import { type LocatedIssue, LocatedError } from '../located-error.js';

/** One problem with a capacity search's options: where, what was expected, what was found. */
export type CapacityIssue = LocatedIssue;

/** Bad capacity-search input (targets, seeds, bounds, a workload it cannot scale). */
export class CapacityInputError extends LocatedError {
  constructor(issues: CapacityIssue[]) {
    super('CapacityInputError', issues);
  }
}
