// Whether yaml.v3 would read a plain scalar back as a !!timestamp: its parseTimestamp tries
// Go's time.Parse with four layouts ("2006-1-2T15:4:5.999999999Z07:00", the same with `t`,
// "2006-1-2 15:4:5.999999999", "2006-1-2"), and time.Parse takes the whole text or nothing —
// so `2024-01-02` is a timestamp but `2024-01-02x`, `2024-13-01` and `2024-02-30` are strings.

const TIME = String.raw`(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?`;
const TIMESTAMP = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt]${TIME}(Z|[+-](\d\d):(\d\d))| +${TIME})?$`);

const daysIn = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function isGoYamlTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (m === null) return false;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return false;
  const clock = m[4] !== undefined ? [m[4], m[5], m[6]] : m[10] !== undefined ? [m[10], m[11], m[12]] : undefined;
  if (clock !== undefined) {
    const [h, min, sec] = clock.map(Number);
    if (h > 23 || min > 59 || sec > 59) return false;
  }
  // time.Parse refuses a zone offset past 24 hours or 60 minutes.
  if (m[8] !== undefined && (Number(m[8]) > 24 || Number(m[9]) > 60)) return false;
  return true;
}
