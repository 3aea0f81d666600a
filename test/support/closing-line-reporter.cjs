// Prints one plain closing line ("tests: N passed, N failed, N skipped") that CI logs can read
// without knowing Jest's own summary format.
class ClosingLineReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(
      `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
    );
  }
}
module.exports = ClosingLineReporter;
