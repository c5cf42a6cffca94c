import type { ReportCell } from './types.js';

/** Text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/**
 * JSON for a `<script type="application/json">`: `<` as \u003c so no value can close the
 * element; JSON.parse reads it back unchanged.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A table cell for reading: integers whole, others to about four significant digits. */
export function formatCell(cell: ReportCell): string {
  if (cell === null) return '–';
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return String(cell);
  if (Number.isInteger(cell)) return String(cell);
  const abs = Math.abs(cell);
  if (abs >= 1000) return cell.toFixed(1);
  if (abs >= 1) return cell.toFixed(3);
  return cell.toPrecision(4);
}
