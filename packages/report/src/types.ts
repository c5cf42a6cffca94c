import type { SimulationResult } from '@blis/cluster';
import type { TopLevelSpec } from 'vega-lite';

export type { TopLevelSpec };

/** One simulation result to report on, under the name its charts and tables use. */
export interface ReportRun {
  name: string;
  result: SimulationResult;
}

/** A table cell: a number is kept as the result gave it; null marks a figure the run does not have. */
export type ReportCell = string | number | null;

export interface ReportTable {
  columns: string[];
  rows: ReportCell[][];
}

/** One chart: a Vega-Lite spec whose data is inline (`data.values`), so it renders with no fetch. */
export interface ReportChart {
  id: string;
  title: string;
  spec: TopLevelSpec;
}

/** One part of a report (latency, routing, ...), present only when the runs have its data. */
export interface ReportSection {
  id: string;
  title: string;
  note?: string;
  charts: ReportChart[];
  table?: ReportTable;
}
