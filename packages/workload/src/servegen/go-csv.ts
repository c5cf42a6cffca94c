// Go's encoding/csv Reader with its defaults, as BLIS reads ServeGen's trace files: comma
// separated, RFC 4180 quotes, blank lines skipped, \r\n read as \n, and every record with as many
// fields as the first (FieldsPerRecord 0). A bare quote in an unquoted field is an error.

export type GoCsvResult = { records: string[][] } | { error: string };

/** All records of `text`, or Go's first error (with its line). */
export function readGoCsv(text: string): GoCsvResult {
  const records: string[][] = [];
  let expected = -1;
  let pos = 0;
  let line = 0;
  const n = text.length;
  while (pos < n) {
    line++;
    const startLine = line;
    // Blank lines (only a line ending) are skipped.
    if (text[pos] === '\n') {
      pos++;
      continue;
    }
    if (text[pos] === '\r' && text[pos + 1] === '\n') {
      pos += 2;
      continue;
    }
    const fields: string[] = [];
    for (;;) {
      if (text[pos] === '"') {
        // Quoted field: "" is a quote; it may span lines.
        let value = '';
        pos++;
        for (;;) {
          const q = text.indexOf('"', pos);
          if (q < 0) return { error: `record on line ${startLine}: extraneous or missing " in quoted-field` };
          value += text.slice(pos, q);
          line += (text.slice(pos, q).match(/\n/g) ?? []).length;
          pos = q + 1;
          if (text[pos] === '"') {
            value += '"';
            pos++;
            continue;
          }
          break;
        }
        fields.push(value.replaceAll('\r\n', '\n'));
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (pos >= n || text[pos] === '\n' || (text[pos] === '\r' && text[pos + 1] === '\n')) break;
        return { error: `parse error on line ${line}: extraneous or missing " in quoted-field` };
      }
      let end = pos;
      while (end < n && text[end] !== ',' && text[end] !== '\n') end++;
      let field = text.slice(pos, end);
      if (end < n && text[end] === '\n' && field.endsWith('\r')) field = field.slice(0, -1);
      if (end >= n && field.endsWith('\r')) field = field.slice(0, -1);
      if (field.includes('"')) return { error: `parse error on line ${line}: bare " in non-quoted-field` };
      fields.push(field);
      pos = end;
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      break;
    }
    // Past the line ending.
    if (text[pos] === '\r' && text[pos + 1] === '\n') pos += 2;
    else if (text[pos] === '\n') pos++;
    if (expected < 0) expected = fields.length;
    else if (fields.length !== expected) return { error: `record on line ${startLine}: wrong number of fields (${fields.length}, the first record has ${expected})` };
    records.push(fields);
  }
  return { records };
}

/** Go's strings.TrimSpace: Unicode White_Space (not U+FEFF, which JavaScript's trim also strips). */
export function goTrimSpace(s: string): string {
  return s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');
}
