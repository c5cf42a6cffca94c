/** Bad latency configuration: unknown model or GPU, missing config, impossible memory. */
export class LatencyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LatencyConfigError';
  }
}
