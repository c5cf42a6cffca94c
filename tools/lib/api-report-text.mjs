// The text side of tools/api-report.mjs: what of an API Extractor report is compared, and how a
// difference is shown in the CI log.

/**
 * The report as committed: warnings keep their message but lose their place in the built
 * `.d.ts` (`// dist/kv-capacity-CxprL2Zv.d.ts:12:5 - (ae-...)` becomes `// (ae-...)`). Line
 * numbers move with every comment and chunk names with every content hash, neither of which is
 * the surface; a report that moves with them fails CI on changes nobody made to the API.
 * For the same reason unions of plain members are sorted (see {@link SIMPLE_UNION}). Reports
 * are written with LF line endings.
 */
export function normalizeReport(text) {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/^\/\/ [^\n]*?\.d\.c?ts:\d+:\d+ - \(/gm, '// (')
    .replace(SIMPLE_UNION, (union) => union.split(' | ').sort().join(' | '));
}

/**
 * A union of plain names and literals (`2 | 1 | "1" | "2"`, `string | undefined`), whole: each
 * member stands between a delimiter and ` | `. TypeScript prints a union's members in the
 * order their types were first created while checking, which moves when unrelated code
 * changes; sorted, the report changes only when the members do. Members with type arguments,
 * brackets or spaces are left in place, and so is the union around them.
 */
const SIMPLE_UNION = /(?<=[<([,:=]\s?|\s|^)(?:[\w"'.$-]+)(?: \| [\w"'.$-]+)+(?=[,;>)\]]|\s|$)/gm;

/** The first `max` lines where two reports differ, each as committed and as built, for the CI log. */
export function firstDifferences(expected, actual, max = 8) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const out = [];
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < 2 * max; i++) {
    if (a[i] === b[i]) continue;
    out.push(`  line ${i + 1}: committed ${JSON.stringify(a[i] ?? '(end)')}`, `  line ${i + 1}: built     ${JSON.stringify(b[i] ?? '(end)')}`);
  }
  return out.join('\n');
}
