import type { SimulationConfigInput } from '@blis/cluster';
import type { RequestSource } from '@blis/engine';
import { openTraceV2Text } from '@blis/workload';
import type { TracePair } from './run-request.js';

/**
 * The uploaded TraceV2 pair as the run's request stream (what `blis replay --trace-header
 * --trace-data` reads from files), with the request count for the progress bar.
 */
export function traceSource(pair: TracePair, config: SimulationConfigInput): { source: RequestSource; total: number } {
  const source = openTraceV2Text({ header: pair.headerText, headerName: pair.headerName, data: pair.dataText, dataName: pair.dataName }, { blockSizeTokens: config.blockSizeTokens ?? 16 });
  // Data rows: every non-blank line after the column names.
  const total = pair.dataText.split('\n').slice(1).filter((l) => l.trim() !== '').length;
  return { source, total };
}
