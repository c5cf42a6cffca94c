// Counts the engine steps taken in quiet runs (engine/src/instance-quiet-steps.ts) while a
// function runs, by wrapping the loop's method on the simulator class the test passes in, so that
// a differential test can require the runs it compares to have exercised the loop at all.

interface QuietRunner {
  metrics: { steps: number };
  quietRun(start: number): number;
}

/** Steps taken in quiet runs while `fn` runs; `simulator` is `@blis/engine`'s InstanceSimulator. */
export function countingQuietSteps<T>(simulator: { prototype: object }, fn: () => T): { result: T; quiet: number } {
  const proto = simulator.prototype as QuietRunner;
  const original = proto.quietRun;
  let quiet = 0;
  proto.quietRun = function (this: QuietRunner, start: number) {
    const before = this.metrics.steps;
    const next = original.call(this, start);
    quiet += this.metrics.steps - before;
    return next;
  };
  try {
    return { result: fn(), quiet };
  } finally {
    // The wrapper shadows the inherited method on this class's prototype: removing it restores it.
    delete (proto as { quietRun?: unknown }).quietRun;
  }
}
