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

/**
 * The latest time the clock holds exactly: whole µs up to 2^53 - 1, about 285 years. Inputs that
 * would put arrivals or a horizon past it (a rate of 1e-300 req/s, a trace scaled by 1e300) are
 * refused: every request would otherwise time out at some absurd instant.
 */
export const MAX_CLOCK_US = Number.MAX_SAFE_INTEGER;

/** MAX_CLOCK_US in words, for messages. */
export const MAX_CLOCK_TEXT = `${MAX_CLOCK_US} µs, the simulated clock's range of about 285 years`;

/**
 * The lowest rate, in requests per second, at which `requests` arrive within the clock's range
 * on average, rounded up to three significant digits so the figure a message states is enough.
 */
export function minRateWithinClock(requests: number): number {
  const x = (requests * 1e6) / MAX_CLOCK_US;
  const step = 10 ** (Math.floor(Math.log10(x)) - 2);
  return Number((Math.ceil(x / step) * step).toPrecision(3));
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
