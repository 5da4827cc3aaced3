import { expect } from 'chai'
import { enforceCopartitioning } from '../../../src/runtime/assignment/copartition-enforcer.js'
import { errorOf } from '../../state/helpers/expect-code.js'

const topics = new Map([
  ['left', 4],
  ['right', 4],
  ['other', 6]
])

describe('enforceCopartitioning', () => {
  it("accepts user topics with equal partition counts and sets the group's repartition topics to that count", () => {
    const counts = new Map([['app-x-repartition', 9]])
    enforceCopartitioning([['left', 'right', 'app-x-repartition']], counts, new Set(), topics)
    expect(counts.get('app-x-repartition')).to.equal(4)
  })

  it('rejects user topics with different counts, naming them with their counts', () => {
    const error = errorOf(() => enforceCopartitioning([['right', 'other', 'left']], new Map(), new Set(), topics))
    expect(error.code).to.equal('TOPOLOGY_INVALID')
    expect(error.message).to.equal('Topics not co-partitioned: [{left=4, other=6, right=4}]')
  })

  it('uses the largest count when the group holds only repartition topics', () => {
    const counts = new Map([
      ['app-a-repartition', 3],
      ['app-b-repartition', 5]
    ])
    enforceCopartitioning([['app-a-repartition', 'app-b-repartition']], counts, new Set(), topics)
    expect([...counts]).to.deep.equal([
      ['app-a-repartition', 5],
      ['app-b-repartition', 5]
    ])
  })

  it('uses a user-fixed count in an all-repartition group, and rejects conflicting fixed counts', () => {
    const counts = new Map([
      ['app-a-repartition', 3],
      ['app-b-repartition', 5]
    ])
    enforceCopartitioning([['app-a-repartition', 'app-b-repartition']], counts, new Set(['app-a-repartition']), topics)
    expect(counts.get('app-b-repartition')).to.equal(3)
    const conflicting = new Map([
      ['app-a-repartition', 3],
      ['app-b-repartition', 5]
    ])
    const error = errorOf(() =>
      enforceCopartitioning(
        [['app-a-repartition', 'app-b-repartition']],
        conflicting,
        new Set(['app-a-repartition', 'app-b-repartition']),
        topics
      )
    )
    expect(error.code).to.equal('TOPOLOGY_INVALID')
  })

  it("rejects a fixed repartition count that differs from the user topics'", () => {
    const error = errorOf(() =>
      enforceCopartitioning([['left', 'app-x-repartition']], new Map([['app-x-repartition', 2]]), new Set(['app-x-repartition']), topics)
    )
    expect(error.code).to.equal('TOPOLOGY_INVALID')
    expect(error.message).to.contain('app-x-repartition')
  })

  it('reports a user topic that does not exist', () => {
    expect(errorOf(() => enforceCopartitioning([['left', 'missing']], new Map(), new Set(), topics)).code).to.equal('UNKNOWN_TOPIC')
  })
})
