/**
 * RepartitionPurger (Kafka Streams' maybePurgeCommittedRecords) on the in-memory Kafka: after the
 * purge interval it deletes the records of repartition topics below the committed offsets, only
 * of repartition topics, not again for unchanged offsets, and never more often than the interval.
 */
import { expect } from 'chai'
import { ManualClock, silentLogger, type AdminPort, type TopicPartitionOffset } from '@kstreams/core'
import { RepartitionPurger } from '@kstreams/core/internal'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'

describe('RepartitionPurger', () => {
  const REPARTITION = 'app-agg-repartition'
  const SOURCE = 'input'
  let kafka: InMemoryKafka
  let admin: Pick<AdminPort, 'deleteRecords'>
  let real: AdminPort
  const deletes: TopicPartitionOffset[][] = []

  beforeEach(async () => {
    kafka = new InMemoryKafka()
    kafka.createTopic(REPARTITION, 1)
    kafka.createTopic(SOURCE, 1)
    for (const topic of [REPARTITION, SOURCE]) {
      kafka.produce(
        topic,
        Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: 'v', partition: 0 }))
      )
    }
    real = kafka.clientFactory().admin({ clientId: 'purger' })
    deletes.length = 0
    admin = {
      deleteRecords: async offsets => {
        deletes.push([...offsets])
        await real.deleteRecords(offsets)
      }
    }
  })

  const settle = async (purger: RepartitionPurger): Promise<void> => {
    await purger.close()
  }

  it('deletes committed repartition records once the interval has passed, and only those', async () => {
    const clock = new ManualClock(1_000)
    const purger = new RepartitionPurger({
      admin,
      repartitionTopics: new Set([REPARTITION]),
      intervalMs: 30_000,
      clock,
      logger: silentLogger
    })
    const committed = [
      { topic: REPARTITION, partition: 0, offset: 6 },
      { topic: SOURCE, partition: 0, offset: 8 }
    ]
    purger.maybePurge(committed)
    await settle(purger)
    expect(deletes).to.deep.equal([])
    clock.advance(30_000)
    purger.maybePurge(committed)
    await settle(purger)
    expect(deletes).to.deep.equal([[{ topic: REPARTITION, partition: 0, offset: 6 }]])
    const begins = await real.beginningOffsets([
      { topic: REPARTITION, partition: 0 },
      { topic: SOURCE, partition: 0 }
    ])
    expect(begins.get(`${REPARTITION}-0`)).to.equal(6)
    expect(begins.get(`${SOURCE}-0`)).to.equal(0)
    // Unchanged offsets are not deleted again; moved ones are, at the next interval.
    clock.advance(30_000)
    purger.maybePurge(committed)
    await settle(purger)
    expect(deletes).to.have.length(1)
    clock.advance(10_000)
    purger.maybePurge([{ topic: REPARTITION, partition: 0, offset: 9 }])
    await settle(purger)
    expect(deletes).to.have.length(1)
    clock.advance(20_000)
    purger.maybePurge([{ topic: REPARTITION, partition: 0, offset: 9 }])
    await settle(purger)
    expect(deletes.at(-1)).to.deep.equal([{ topic: REPARTITION, partition: 0, offset: 9 }])
  })
})
