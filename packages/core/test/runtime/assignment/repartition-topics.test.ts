import { expect } from 'chai'
import { computeRepartitionTopicCounts } from '../../../src/runtime/assignment/repartition-topics.js'
import type { AssignorSubtopology, AssignorTopology } from '../../../src/runtime/assignment/topology-metadata.js'
import { errorOf } from '../../state/helpers/expect-code.js'

function sub(id: number, parts: Partial<AssignorSubtopology>): AssignorSubtopology {
  return { id, sourceTopics: [], sourcePatterns: [], changelogTopics: [], repartitionSourceTopics: [], repartitionSinkTopics: [], ...parts }
}

describe('computeRepartitionTopicCounts', () => {
  it('sizes a repartition topic as the largest source topic of the sub-topologies writing it', () => {
    const topology: AssignorTopology = {
      subtopologies: [
        sub(0, { sourceTopics: ['a'], repartitionSinkTopics: ['app-r-repartition'] }),
        sub(1, { sourceTopics: ['b'], repartitionSinkTopics: ['app-r-repartition'] }),
        sub(2, { repartitionSourceTopics: ['app-r-repartition'] })
      ],
      repartitionTopics: new Map([['app-r-repartition', {}]]),
      copartitionGroups: []
    }
    const counts = computeRepartitionTopicCounts(
      topology,
      new Map([
        [0, ['a']],
        [1, ['b']]
      ]),
      new Map([
        ['a', 3],
        ['b', 7]
      ])
    )
    expect([...counts]).to.deep.equal([['app-r-repartition', 7]])
  })

  it('resolves chains of repartition topics upstream first, whatever their order', () => {
    const topology: AssignorTopology = {
      subtopologies: [
        sub(2, { repartitionSourceTopics: ['app-second-repartition'] }),
        sub(1, { repartitionSourceTopics: ['app-first-repartition'], repartitionSinkTopics: ['app-second-repartition'] }),
        sub(0, { sourceTopics: ['in'], repartitionSinkTopics: ['app-first-repartition'] })
      ],
      repartitionTopics: new Map([
        ['app-second-repartition', {}],
        ['app-first-repartition', {}]
      ]),
      copartitionGroups: []
    }
    const counts = computeRepartitionTopicCounts(topology, new Map([[0, ['in']]]), new Map([['in', 5]]))
    expect(counts.get('app-first-repartition')).to.equal(5)
    expect(counts.get('app-second-repartition')).to.equal(5)
  })

  it('keeps a user-fixed count and propagates it downstream', () => {
    const topology: AssignorTopology = {
      subtopologies: [
        sub(0, { sourceTopics: ['in'], repartitionSinkTopics: ['app-first-repartition'] }),
        sub(1, { repartitionSourceTopics: ['app-first-repartition'], repartitionSinkTopics: ['app-second-repartition'] }),
        sub(2, { repartitionSourceTopics: ['app-second-repartition'] })
      ],
      repartitionTopics: new Map([
        ['app-first-repartition', { numPartitions: 2 }],
        ['app-second-repartition', {}]
      ]),
      copartitionGroups: []
    }
    const counts = computeRepartitionTopicCounts(topology, new Map([[0, ['in']]]), new Map([['in', 5]]))
    expect(counts.get('app-first-repartition')).to.equal(2)
    expect(counts.get('app-second-repartition')).to.equal(2)
  })

  it('breaks a cycle of repartition topics with the counts that are known', () => {
    const topology: AssignorTopology = {
      subtopologies: [
        sub(0, {
          sourceTopics: ['in'],
          repartitionSourceTopics: ['app-back-repartition'],
          repartitionSinkTopics: ['app-forth-repartition']
        }),
        sub(1, { repartitionSourceTopics: ['app-forth-repartition'], repartitionSinkTopics: ['app-back-repartition'] })
      ],
      repartitionTopics: new Map([
        ['app-forth-repartition', {}],
        ['app-back-repartition', {}]
      ]),
      copartitionGroups: []
    }
    const counts = computeRepartitionTopicCounts(topology, new Map([[0, ['in']]]), new Map([['in', 6]]))
    expect([...counts].sort()).to.deep.equal([
      ['app-back-repartition', 6],
      ['app-forth-repartition', 6]
    ])
  })

  it('fails when no sub-topology writes a repartition topic', () => {
    const topology: AssignorTopology = {
      subtopologies: [sub(0, { repartitionSourceTopics: ['app-r-repartition'] })],
      repartitionTopics: new Map([['app-r-repartition', {}]]),
      copartitionGroups: []
    }
    const error = errorOf(() => computeRepartitionTopicCounts(topology, new Map(), new Map()))
    expect(error.code).to.equal('ILLEGAL_STATE')
    expect(error.message).to.contain('app-r-repartition')
  })
})
