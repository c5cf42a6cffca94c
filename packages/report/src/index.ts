// @blis/report: simulation results as charts and tables; browser-safe (no Node built-ins). The
// root is what a program turns results into a page or charts with (README: "What is public");
// the sections' builders and the CDF helpers stay inside: `reportSections` composes them.

export type { ReportCell, ReportChart, ReportRun, ReportSection, ReportTable, TopLevelSpec } from './types.js';
export { reportSections } from './report-sections.js';
export type { CalibrationBreakdownView } from './sections/calibration.js';
export type { CalibrationAggregates, CalibrationMetricView, CalibrationView, ReportCalibration } from './sections/calibration.js';
export { renderChartSvg, scopeSvgIds } from './render-svg.js';
export { renderReportHtml } from './render-html.js';
export type { ReportData, ReportHtmlOptions, ReportRunData, ReportSectionData } from './render-html.js';
export type { CdfPoint } from './cdf.js';
export type { Timeseries, TimeseriesCluster, TimeseriesInstance, ReportRequest } from './result-view.js';
