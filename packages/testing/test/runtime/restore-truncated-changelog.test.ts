/**
 * A changelog truncated below a restore's position while the restore runs (an unclean leader
 * election): the restore consumer's position is out of range, and Kafka Streams, whose restore
 * consumer has no offset reset, takes the task for corrupted. The restore must not wait for the
 * end it captured at the start, which never comes: the task is wiped and restored from what the
 * changelog holds now, and then processes.
 */
import { expect } from 'chai'
import { QueryableStoreTypes } from '@kstreams/core'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, STORE } from './streams-harness.js'

describe('KafkaStreams on the in-memory Kafka: a changelog truncated under a restore', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 1 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  it('below the restore position: the task is wiped and restored from the truncated changelog, then runs; no hang, no ERROR', async () => {
    // A first instance counts and stops; its in-memory store lives on in the changelog only.
    const first = await h.start()
    h.produce(300, 300)
    await h.settle()
    await first.streams.close()
    expect(h.kafka.topic(h.changelog).allRecords()).to.have.length(300)

    // The second instance restores slowly: a few records per fetch, each fetch held back.
    const delay = h.kafka.delay({ api: 'fetch', ms: 10, times: Infinity, clientId: /-restore-consumer$/ })
    let applied = 0
    const starts: number[] = []
    const app = await h.start({
      config: { maxPartitionFetchBytes: 200 },
      restoreListener: {
        onRestoreStart: (_p, _s, start) => {
          starts.push(start)
        },
        onBatchRestored: (_p, _s, _end, n) => {
          applied += n
        }
      }
    })
    await eventually(() => applied >= 100, 10_000)
    // The new leader has only the first 50 records.
    h.kafka.truncateLog(h.changelog, 0, 50)
    await eventually(() => app.streams.state() === 'RUNNING', 10_000)
    delay.remove()
    expect(starts[0]).to.equal(0)
    expect(starts.length).to.be.at.least(2)
    const store = app.streams.store({ storeName: STORE, queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
    using all = store.all()
    const contents = new Map([...all].map(kv => [kv.key, kv.value]))
    expect(contents).to.deep.equal(h.changelogReplay())
    expect(contents.size).to.equal(50)
    // And it processes: a new record counts on top of the restored state.
    h.kafka.produce('words', { key: 'k0', value: 'x' })
    await eventually(() => store.get('k0') === 2, 10_000)
    h.expectNoError()
  })
})
