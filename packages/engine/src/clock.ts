/** Thrown when something asks the simulation clock to go backwards (INV-3). */
export class ClockRegressionError extends Error {
  readonly from: number;
  readonly to: number;
  constructor(from: number, to: number) {
    super(`INV-3 violated: clock would move backwards from ${from} to ${to} µs`);
    this.name = 'ClockRegressionError';
    this.from = from;
    this.to = to;
  }
}

/** Simulation time in integer microseconds (ticks). Only ever moves forward. */
export class SimClock {
  private t = 0;

  get now(): number {
    return this.t;
  }

  advanceTo(time: number): void {
    if (time < this.t) throw new ClockRegressionError(this.t, time);
    this.t = time;
  }
}
