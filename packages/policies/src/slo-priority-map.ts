import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * GAIE/llm-d priorities of the SLO classes, as BLIS maps them: higher is more urgent and a
 * negative value marks the class sheddable. Empty or unknown classes count as `standard`.
 */
export const DEFAULT_SLO_PRIORITIES: Readonly<Record<string, number>> = Object.freeze({
  critical: 4,
  standard: 3,
  batch: -1,
  sheddable: -2,
  background: -3,
});

/** Priority of an empty or unrecognised SLO class (the `standard` tier). */
export const DEFAULT_UNKNOWN_SLO_PRIORITY = 3;

/** Class -> priority lookup with overrides applied on top of the GAIE defaults. */
export class SloPriorityMap {
  private readonly table: Map<string, number>;
  readonly unknownPriority: number;

  constructor(
    overrides: Readonly<Record<string, number>> = {},
    unknownPriority = DEFAULT_UNKNOWN_SLO_PRIORITY,
  ) {
    this.table = new Map(Object.entries({ ...DEFAULT_SLO_PRIORITIES, ...overrides }));
    this.unknownPriority = unknownPriority;
  }

  priority(sloClass: string): number {
    const p = this.table.get(sloClass);
    return p === undefined ? this.unknownPriority : p;
  }

  /** GAIE's contract: a class is sheddable exactly when its priority is negative. */
  isSheddable(sloClass: string): boolean {
    return this.priority(sloClass) < 0;
  }
}

/** Params field for per-class priority overrides (BLIS `slo_priorities`). */
export const sloPrioritiesSchema = lazySchema(() =>
  z.record(
    z.string(),
    z.number({ error: 'expected a finite number (the priority of this SLO class)' }),
    { error: 'expected a map from SLO class name to priority' },
  ),
);
