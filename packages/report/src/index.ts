// @blis/report: simulation results as charts and tables; browser-safe (no Node built-ins).

export type { ReportCell, ReportChart, ReportRun, ReportSection, ReportTable, TopLevelSpec } from './types.js';
export { reportSections } from './report-sections.js';
export { calibrationSection } from './sections/calibration.js';
export { calibrationBreakdownSection } from './sections/calibration-breakdown.js';
export type { CalibrationBreakdownView } from './sections/calibration.js';
export type { CalibrationAggregates, CalibrationMetricView, CalibrationView, ReportCalibration } from './sections/calibration.js';
export { renderChartSvg, scopeSvgIds } from './render-svg.js';
export { renderReportHtml, reportData } from './render-html.js';
export type { ReportData, ReportHtmlOptions, ReportRunData, ReportSectionData } from './render-html.js';
export { CDF_MAX_POINTS, cdfPoints, quantileSorted } from './cdf.js';
export type { CdfPoint } from './cdf.js';
export { HEADLINE_METRICS } from './sections/comparison.js';
export type { Timeseries, TimeseriesCluster, TimeseriesInstance, ReportRequest } from './result-view.js';
