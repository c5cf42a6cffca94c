import { describeZodExpected } from '@blis/policies/internal';
import type { core } from 'zod';

/**
 * What a zod issue expected, in words a user of the YAML or trace file reads ("a number > 0"):
 * the shared translation of @blis/policies, kept under this name for the readers that use it.
 */
export function describeExpected(i: core.$ZodIssue, value?: unknown): string {
  return describeZodExpected(i, value);
}

/** A custom issue's own account of what it found (`params.found`), when it has one. */
export function customFound(i: core.$ZodIssue): string | undefined {
  return i.code === 'custom' ? ((i.params as { found?: string } | undefined)?.found ?? undefined) : undefined;
}
