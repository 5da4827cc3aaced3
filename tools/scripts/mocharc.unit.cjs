// The root .mocharc.json without the broker tests (tests/integration): the unit half of `npm test` (run-tests.ts).
const root = require('../../.mocharc.json')

module.exports = { ...root, spec: root.spec.filter(spec => !spec.startsWith('tests/integration/')) }
