const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

/** The digit at `i` of `s` (0 to 9), or -1 for any other character. */
function digit(s: string, i: number): number {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

/** The two-digit number at `i`, or -1. */
function two(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/**
 * Reads Azure timestamps, `YYYY-MM-DD HH:MM:SS[.fffffff]` (a `T` may stand for the space), as
 * microseconds since the epoch, floored with exact integer arithmetic. It remembers the last
 * date's start: a trace's rows share their date, so most rows cost a few character reads, with
 * no regex match and no Date.
 */
export class AzureTimestampReader {
  /** The last valid date read, `YYYY-MM-DD`, and its start in seconds since the epoch. */
  private date = '';
  private dateSecs = 0;

  /**
   * The timestamp spanning `text[start, end)`, nothing around it, or undefined when that is not
   * the format or names no real moment (month 13, February 30th, 25:61): Date would roll those
   * over to another date.
   */
  read(text: string, start = 0, end = text.length): number | undefined {
    const len = end - start;
    if (len < 19 || (len > 19 && (len === 20 || len > 29 || text.charCodeAt(start + 19) !== 46))) return undefined; // 46: '.'
    const h = two(text, start + 11);
    const mi = two(text, start + 14);
    const s = two(text, start + 17);
    const sep = text.charCodeAt(start + 10);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return undefined;
    if ((sep !== 32 && sep !== 84) || text.charCodeAt(start + 13) !== 58 || text.charCodeAt(start + 16) !== 58) return undefined; // ' ', 'T', ':'
    let frac = 0;
    // Microseconds: the first six fraction digits, padded with zeros (later ones are floored away).
    for (let k = 0; k < 6; k++) {
      const i = start + 20 + k;
      if (i < end) {
        const d = digit(text, i);
        if (d < 0) return undefined;
        frac = frac * 10 + d;
      } else frac *= 10;
    }
    for (let i = start + 26; i < end; i++) if (digit(text, i) < 0) return undefined;
    if (!this.sameDate(text, start) && !this.newDate(text, start)) return undefined;
    return (this.dateSecs + h * 3600 + mi * 60 + s) * 1_000_000 + frac;
  }

  private sameDate(text: string, start: number): boolean {
    return this.date !== '' && text.startsWith(this.date, start);
  }

  /** Reads and remembers the date at `start`; false when it is not a real date. */
  private newDate(text: string, start: number): boolean {
    const y1 = two(text, start);
    const y2 = two(text, start + 2);
    const mo = two(text, start + 5);
    const d = two(text, start + 8);
    if (y1 < 0 || y2 < 0 || mo < 0 || d < 0 || text.charCodeAt(start + 4) !== 45 || text.charCodeAt(start + 7) !== 45) return false; // 45: '-'
    const y = y1 * 100 + y2;
    if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return false;
    // setUTCFullYear, not Date.UTC: that reads years 0 to 99 as 1900 to 1999.
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, d);
    this.dateSecs = date.getTime() / 1000;
    this.date = text.slice(start, start + 10);
    return true;
  }
}

/**
 * Microseconds since the epoch of an Azure timestamp (surrounding whitespace allowed), or
 * undefined when it is not one (see AzureTimestampReader).
 */
export function azureTimestampUs(ts: string): number | undefined {
  return new AzureTimestampReader().read(ts.trim());
}
