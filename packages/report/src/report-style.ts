/** The report's stylesheet, inlined so the file needs nothing from the network. */
export const REPORT_CSS = `
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1180px; padding: 16px 24px 48px; color: #222; }
header h1 { font-size: 1.5em; margin: 0.4em 0; }
header ul { margin: 0.2em 0 0.8em; padding-left: 1.2em; }
nav a { margin-right: 1em; }
section { border-top: 1px solid #ddd; margin-top: 1.5em; padding-top: 0.5em; }
section h2 { font-size: 1.2em; }
.note { color: #555; font-size: 0.9em; max-width: 80ch; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
figure { margin: 0; }
figure svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 0.85em; margin-top: 0.8em; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; }
td:first-child, th:first-child { text-align: left; }
.table-wrap { overflow-x: auto; }
`;
