import { expect } from 'vitest';
import { hasRawControl } from '../../../../tools/test-support/input-mutations.js';
import { type InputIssue, TraceReadError, WorkloadSpecError } from '../../src/index.js';

/** Longest message line a refusal may print: a located sentence with a 60-character excerpt. */
export const MAX_LINE_CHARS = 400;
/** Most lines one refusal may print. */
export const MAX_LINES = 25;

/**
 * The readers' contract under fuzzing: `run` either returns (the input is accepted) or throws
 * the reader's own located error, every issue naming `file`, the whole message bounded.
 */
export function acceptedOrLocated(run: () => unknown, files: readonly string[]): 'accepted' | 'refused' {
  try {
    run();
    return 'accepted';
  } catch (e) {
    if (!(e instanceof WorkloadSpecError || e instanceof TraceReadError)) throw e;
    const issues: InputIssue[] = e.issues;
    expect(issues.length).toBeGreaterThan(0);
    for (const i of issues) expect(files, e.message).toContain(i.file);
    const lines = e.message.split('\n');
    expect(lines.length, e.message.slice(0, 2000)).toBeLessThanOrEqual(MAX_LINES);
    for (const l of lines) expect(l.length, l.slice(0, 2000)).toBeLessThanOrEqual(MAX_LINE_CHARS);
    // A message quotes excerpts, escaped: no raw control characters reach a terminal.
    expect(hasRawControl(e.message), e.message).toBe(false);
    return 'refused';
  }
}
