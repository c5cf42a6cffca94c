// The file access @blis/latency needs, in Node. Sources import it as `#host-files`: a browser
// build resolves that name to ./files.browser.ts instead, so the rest of the package stays free
// of Node built-ins (issue 20; the `core-browser-safe` dependency-cruiser rule holds the line).
export { readFileSync, statSync } from 'node:fs';
export { join } from 'node:path';
