'use strict'
// Mocha's spec reporter plus the closing line CI reads: "N passed, N failed[, N skipped]".
const {
  reporters: { Spec },
  Runner: {
    constants: { EVENT_RUN_END }
  }
} = require('mocha')

class SpecWithSummary extends Spec {
  constructor(runner, options) {
    super(runner, options)
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats
      process.stdout.write(`${s.passes} passed, ${s.failures} failed` + (s.pending ? `, ${s.pending} skipped` : '') + '\n')
    })
  }
}
module.exports = SpecWithSummary
