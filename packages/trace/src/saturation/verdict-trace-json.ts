import type { SaturationLevel, SaturationVerdict } from '@blis/policies';

/**
 * Writes BLIS's saturation report (`--saturation-report`) as it writes it: one JSON object,
 * `final` (the labels, omitted when there are none) then `trace` (one record per event and
 * detector), indented by two spaces, map keys sorted, a newline at the end. Streamed through
 * `put`, so a long run's trace is never one string.
 */
export class VerdictTraceWriter {
  private records = 0;

  constructor(private readonly put: (chunk: string) => void) {}

  /** Opens the object with the final labels. */
  begin(final: Record<string, SaturationLevel>): void {
    const keys = Object.keys(final).sort();
    if (keys.length === 0) {
      this.put('{\n  "trace": [');
      return;
    }
    const lines = keys.map((k) => `    ${JSON.stringify(k)}: ${JSON.stringify(final[k])}`);
    this.put(`{\n  "final": {\n${lines.join(',\n')}\n  },\n  "trace": [`);
  }

  record(timestampUs: number, detector: string, verdict: SaturationVerdict): void {
    const signals: Record<string, number> = {};
    for (const k of Object.keys(verdict.signals).sort()) signals[k] = verdict.signals[k];
    const body = JSON.stringify({ timestamp: timestampUs, detector, result: { level: verdict.level, score: verdict.score, confidence: verdict.confidence, signals } }, null, 2);
    this.put(`${this.records === 0 ? '' : ','}\n    ${body.replaceAll('\n', '\n    ')}`);
    this.records++;
  }

  /** Closes the trace and the object. */
  end(): void {
    this.put(this.records === 0 ? ']\n}\n' : '\n  ]\n}\n');
  }
}
