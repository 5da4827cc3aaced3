/** resetOffsets: Kafka Streams' StreamThread.resetOffsets per-partition policies, by-duration (KIP-1106) included. */
import { expect } from 'chai'
import { AutoOffsetReset, type AutoOffsetReset as Policy, type IsolationLevel, type TopicPartition } from '../../../src/index.js'
import type { TopicPartitionTimestamp } from '../../../src/index.js'
import { resetOffsets } from '../../../src/runtime/consumer/reset-offsets.js'

const NOW = 10_000

function fixture(policies: Record<string, Policy>) {
  const listed: Array<[string, string[], IsolationLevel]> = []
  const looked: Array<[TopicPartitionTimestamp[], IsolationLevel]> = []
  return {
    listed,
    looked,
    options: {
      port: {
        listOffsets: async (partitions: readonly TopicPartition[], spec: 'earliest' | 'latest', isolationLevel: IsolationLevel) => {
          listed.push([spec, partitions.map(p => `${p.topic}-${p.partition}`), isolationLevel])
          return new Map(partitions.map(p => [`${p.topic}-${p.partition}`, spec === 'earliest' ? 0 : 100]))
        }
      },
      isolationLevel: 'READ_COMMITTED' as const,
      policy: (tp: TopicPartition) => policies[tp.topic]!,
      offsetsForTimes: async (partitions: readonly TopicPartitionTimestamp[], isolationLevel: IsolationLevel) => {
        looked.push([[...partitions], isolationLevel])
        // Records at timestamps 0, 1000, 2000, ... at offsets 0, 1, 2, ... up to offset 9.
        return new Map(
          partitions
            .filter(p => p.timestamp <= 9000)
            .map(p => [`${p.topic}-${p.partition}`, Math.ceil(p.timestamp / 1000)] as [string, number])
        )
      },
      nowMs: NOW
    }
  }
}

describe('resetOffsets', () => {
  it('earliest, latest and by duration, each partition by its own policy, at the consumer isolation level', async () => {
    const f = fixture({ e: 'earliest', l: 'latest', d: AutoOffsetReset.byDuration(4500) })
    const result = await resetOffsets(
      [
        { topic: 'e', partition: 0 },
        { topic: 'l', partition: 0 },
        { topic: 'd', partition: 0 }
      ],
      f.options
    )
    expect('offsets' in result && [...result.offsets].sort()).to.deep.equal([
      ['d-0', 6],
      ['e-0', 0],
      ['l-0', 100]
    ])
    expect(f.looked).to.deep.equal([[[{ topic: 'd', partition: 0, timestamp: 5500 }], 'READ_COMMITTED']])
    expect(f.listed).to.deep.equal([
      ['earliest', ['e-0'], 'READ_COMMITTED'],
      ['latest', ['l-0'], 'READ_COMMITTED']
    ])
  })

  it('by duration: no record that recent starts at the end; a duration longer than now looks up timestamp 0', async () => {
    const f = fixture({ recent: AutoOffsetReset.byDuration(0), all: AutoOffsetReset.byDuration(NOW * 10) })
    const result = await resetOffsets(
      [
        { topic: 'recent', partition: 0 },
        { topic: 'all', partition: 0 }
      ],
      f.options
    )
    expect('offsets' in result && [...result.offsets].sort()).to.deep.equal([
      ['all-0', 0],
      ['recent-0', 100]
    ])
    expect(f.looked[0]![0].map(p => p.timestamp)).to.deep.equal([10_000, 0])
    expect(f.listed).to.deep.equal([['latest', ['recent-0'], 'READ_COMMITTED']])
  })

  it("'none', or by duration without offsetsForTimes, is a fatal KAFKA error naming the partition", async () => {
    const none = await resetOffsets([{ topic: 'n', partition: 3, outOfRange: 42 }], fixture({ n: 'none' }).options)
    expect('fatal' in none && none.fatal.code).to.equal('KAFKA')
    expect('fatal' in none && none.fatal.message).to.contain('input topic n (partition 3) (offset 42 is out of range)')
    const f = fixture({ d: AutoOffsetReset.byDuration(5) })
    const unsupported = await resetOffsets([{ topic: 'd', partition: 1 }], { ...f.options, offsetsForTimes: undefined })
    expect('fatal' in unsupported && unsupported.fatal.message).to.contain('Cannot reset input topic d (partition 1) by_duration:5ms')
    expect(f.listed).to.deep.equal([])
  })
})
