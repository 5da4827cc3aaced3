/**
 * A restoring task registers its changelog partitions with the changelog reader, which looks up
 * their end and beginning offsets (the admin's ListOffsets): transient failures there are retried
 * (for up to taskTimeoutMs), the store is restored completely and processing goes on, with the
 * default uncaught-exception handler; past taskTimeoutMs the thread fails with the Kafka error.
 */
import { expect } from 'chai'
import type { KafkaErrorName, KafkaRequestError, TopicPartition } from '@kstreams/core'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, STORE } from './streams-harness.js'

describe('KafkaStreams on the in-memory Kafka: changelog offset lookups failing during restoration', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  for (const [api, error] of [
    ['endOffsets', 'REQUEST_TIMED_OUT'],
    ['beginningOffsets', 'LEADER_NOT_AVAILABLE'],
    ['endOffsets', 'NETWORK_EXCEPTION']
  ] as const satisfies ReadonlyArray<readonly ['endOffsets' | 'beginningOffsets', KafkaErrorName]>) {
    it(`${api} answered ${error} three times: retried, the store is restored, no ERROR`, async () => {
      // A first instance counts and stops; its in-memory stores live on in the changelog only.
      const first = await h.start()
      h.produce(200)
      await h.settle()
      await first.streams.close()
      const changelogRecords = h.kafka.topic(h.changelog).allRecords().length
      expect(changelogRecords).to.equal(200)

      const restored = new Map<number, number>()
      const ended: TopicPartition[] = []
      const fault = h.kafka.failNext({ api, error, times: 3, clientId: /-StreamThread-1-admin$/ })
      await h.start({
        restoreListener: {
          onRestoreEnd: (partition, storeName, total) => {
            expect(storeName).to.equal(STORE)
            ended.push(partition)
            restored.set(partition.partition, total)
          }
        }
      })
      h.produce(100)
      await h.verify()
      expect(fault.hits).to.equal(3)
      expect(ended.map(p => p.partition).sort()).to.deep.equal([0, 1, 2, 3])
      expect([...restored.values()].reduce((a, b) => a + b, 0)).to.equal(changelogRecords)
      expect(h.apps[1]!.states).to.deep.equal(['REBALANCING', 'RUNNING'])
    })
  }

  it('a lookup failing for longer than taskTimeoutMs fails the thread with the typed Kafka error, through the handler', async () => {
    const first = await h.start()
    h.produce(200)
    await h.settle()
    await first.streams.close()
    h.kafka.failNext({ api: 'endOffsets', error: 'REQUEST_TIMED_OUT', times: Infinity, clientId: /-StreamThread-1-admin$/ })
    const started = Date.now()
    const app = await h.start({ config: { taskTimeoutMs: 1000 }, handlerResponse: 'SHUTDOWN_CLIENT' })
    await eventually(() => app.streams.state() === 'ERROR', 10_000)
    expect(Date.now() - started).to.be.at.least(1000)
    expect(app.errors.map(e => [e.code, (e as KafkaRequestError).errorName, e.retriable])).to.deep.equal([
      ['KAFKA', 'REQUEST_TIMED_OUT', true]
    ])
    expect(app.states).to.deep.equal(['REBALANCING', 'PENDING_ERROR', 'ERROR'])
  })
})
