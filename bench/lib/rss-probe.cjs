// Preloaded (`node --require`) into a CLI process under measurement: at exit it writes the
// process's peak resident set size (KiB) to the file named by BLIS_BENCH_RSS_FILE. Portable
// where `/usr/bin/time -v` is not installed.
const fs = require('node:fs');
const out = process.env.BLIS_BENCH_RSS_FILE;
if (out) {
  process.on('exit', () => {
    fs.writeFileSync(out, String(process.resourceUsage().maxRSS));
  });
}
