import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { topologyFromScript } from './topology-helpers.js'

interface GoldenCase {
  readonly name: string
  readonly script: readonly string[]
  readonly expected: string
}

const golden = JSON.parse(readFileSync(new URL('./fixtures/describe-golden.json', import.meta.url), 'utf8')) as { cases: GoldenCase[] }

describe('Topology.describe() golden texts from Kafka Streams 4.1.1', () => {
  it('has the fixture cases', () => {
    expect(golden.cases.length).to.be.greaterThan(30)
  })

  for (const testCase of golden.cases) {
    it(`prints what Kafka prints for ${testCase.name}`, () => {
      expect(topologyFromScript(testCase.script).describe().toString()).to.equal(testCase.expected)
    })
  }
})
