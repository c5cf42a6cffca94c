// Medians of bench/compare-builds.sh's output: per run label and tree, CPU (user + sys) and wall
// seconds, each tree's CPU ratio to the last tree's, and the last tree's wall time in `node -e 0`s.
//   node bench/compare-builds-summary.mjs /tmp/compare-builds.txt
import { readFileSync } from 'node:fs';

const rows = new Map();
const differing = new Set();
for (const line of readFileSync(process.argv[2] ?? '/tmp/compare-builds.txt', 'utf8').split('\n')) {
  const p = line.trim().split(/\s+/);
  if (p.length === 3 && p[1] === 'stdout' && p[2] === 'differs') differing.add(p[0]);
  if (p.length !== 5 || Number.isNaN(Number(p[2]))) continue;
  const [label, tree, wall, user, sys] = p;
  if (!rows.has(label)) rows.set(label, new Map());
  const byTree = rows.get(label);
  if (!byTree.has(tree)) byTree.set(tree, []);
  byTree.get(tree).push({ wall: Number(wall), cpu: Number(user) + Number(sys) });
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
for (const [label, byTree] of rows) {
  const trees = [...byTree.keys()].filter((t) => t !== 'node0');
  const last = trees.at(-1);
  const cpu = (t) => median(byTree.get(t).map((r) => r.cpu));
  const wall = (t) => median(byTree.get(t).map((r) => r.wall));
  const parts = trees.map((t) => `${t} ${cpu(t).toFixed(2)} s (${(cpu(t) / cpu(last)).toFixed(2)}x)`);
  const node0 = byTree.has('node0') ? wall('node0') : Number.NaN;
  console.log(`${label} [${byTree.get(last).length} rounds] cpu: ${parts.join(', ')}; wall ${last} ${wall(last).toFixed(2)} s = ${(wall(last) / node0).toFixed(1)}x node -e 0${differing.has(label) ? '; STDOUT DIFFERS' : ''}`);
}
