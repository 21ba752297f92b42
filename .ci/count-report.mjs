// Reads vitest's JSON report and prints the plain closing line CI reads, 'N passed, N failed';
// exits 1 when the report counts any failure or no passed test, whatever exit code the test command
// ended with (a dependency's exit hook once turned failed runs into exit 0).
import { readFileSync } from 'node:fs';

let report;
try {
  report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// A file that failed to load counts no failed test, and an error outside any test only clears
// `success`: each still counts as a failure.
const unloaded = report.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed')).length;
let failed = report.numFailedTests + unloaded;
if (!report.success && failed === 0) failed = 1;
console.log(`${report.numPassedTests} passed, ${failed} failed`);
process.exit(failed > 0 || report.numPassedTests === 0 ? 1 : 0);
