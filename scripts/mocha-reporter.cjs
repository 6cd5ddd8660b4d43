// Mocha's spec reporter plus one plain closing line, "tests: N passed, N failed, N skipped",
// that CI systems read.
const Mocha = require("mocha");

class Reporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once("end", () => {
      const s = runner.stats ?? {};
      process.stdout.write(`\ntests: ${s.passes ?? 0} passed, ${s.failures ?? 0} failed, ${s.pending ?? 0} skipped\n`);
    });
  }
}

module.exports = Reporter;
