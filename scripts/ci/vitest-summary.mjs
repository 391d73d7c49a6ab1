#!/usr/bin/env node
// Prints one plain closing line "LABEL: N passed, N failed, N skipped" from a vitest JSON report,
// so CI logs end with a count any reader understands. Exits 1 when the report is missing or
// no test passed (a run that executed nothing must not look green).
import { readFileSync } from "node:fs";

const [file, label = "tests"] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(file, "utf8"));
} catch (e) {
  console.error(`vitest-summary: cannot read ${file}: ${e.message}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${label}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0) {
  console.error("vitest-summary: no test passed");
  process.exit(1);
}
