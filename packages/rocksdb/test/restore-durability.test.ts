/**
 * What a task's checkpoint covers is durable before the checkpoint is written (Kafka flushes its
 * stores before every checkpoint). Restore and standby writes go to RocksDB without an fsync of
 * its write-ahead log; the flush before the checkpoint must sync the WAL even when it has no
 * pending writes of its own, or after an OS crash or power loss the checkpoint names offsets
 * the store lost, and the restore skips them for good.
 *
 * Observed on the real binding: every batch write is logged with its sync flag and with the
 * task's `.checkpoint` as it is at that moment. A WAL sync (a write with sync) must follow the
 * last restore write, and come before the checkpoint that covers it was written.
 */
import { expect } from 'chai'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { KafkaStreams, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, ProcessorContext, Record } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { RocksDBStore } from '../src/rocksdb-store.js'
import { RocksDBStores } from '../src/rocksdb-stores.js'
import { eventually, s, WriteCounter } from './helpers/open-store.js'
import { TempDirs } from './helpers/temp-dirs.js'
import { createTestStoreContext } from '@kstreams/stores/compliance'

const S = Serdes.String()
const L = Serdes.Long()

describe('RocksDB: restored data is durable before the checkpoint that covers it', function () {
  this.timeout(20_000)
  const dirs = new TempDirs()
  afterEach(async () => {
    await dirs.cleanup()
  })

  it('RocksDBStore.flush() fsyncs the WAL after writes made without it (restore, spill past maxPendingBytes, deleteRange), even with nothing pending', async () => {
    const counter = new WriteCounter()
    const store = new RocksDBStore('store', { databaseFactory: counter.factory, maxPendingBytes: 10 })
    const context = createTestStoreContext({ stateDir: await dirs.make() })
    await store.init(context, store)
    try {
      context.restore('store', [
        { key: s('a'), value: s('1') },
        { key: s('b'), value: s('2') }
      ])
      expect(counter.writes).to.deep.equal([{ sync: false }])
      store.flush()
      expect(counter.writes).to.deep.equal([{ sync: false }, { sync: true }])
      store.flush()
      expect(counter.writes).to.have.length(2) // synced already: nothing to do
      store.put(s('c'), Buffer.alloc(100)) // past maxPendingBytes: written at once, unsynced
      expect(counter.writes.at(-1)).to.deep.equal({ sync: false })
      store.flush()
      expect(counter.writes.at(-1)).to.deep.equal({ sync: true })
      store.deleteRange(s('a'), s('b'))
      store.flush()
      expect(counter.writes.at(-1)).to.deep.equal({ sync: true })
    } finally {
      store.close()
      await store.whenClosed()
    }
  })

  it('a task restored from its changelog syncs the WAL before it writes its checkpoint', async () => {
    const kafka = new InMemoryKafka()
    const stateDir = await dirs.make()
    const applicationId = `restore-durability-${process.pid}`
    const changelog = `${applicationId}-Counts-changelog`
    const checkpoint = join(stateDir, applicationId, '0_0', '.checkpoint')
    kafka.createTopic('words', 1)
    kafka.createTopic(changelog, 1)
    kafka.produce(
      changelog,
      Array.from({ length: 50 }, (_, i) => ({ key: `k${i % 7}`, value: L.serializer().serialize(changelog, i)!, partition: 0 }))
    )
    const writes: Array<{ sync: boolean; probe: string }> = []
    const { factory } = new WriteCounter(sync => {
      writes.push({ sync, probe: existsSync(checkpoint) ? readFileSync(checkpoint, 'utf8') : '' })
    })
    const topology = new Topology()
      .addSource('Words', 'words', { keyDeserializer: S, valueDeserializer: S })
      .addProcessor(
        'Count',
        () => {
          let store: KeyValueStore<string, number>
          return {
            init(ctx: ProcessorContext<never, never>) {
              store = ctx.getStateStore('Counts')
            },
            process(r: Record<string, string>) {
              store.put(r.key, (store.get(r.key) ?? 0) + 1)
            }
          }
        },
        'Words'
      )
      .addStateStore(
        Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('Counts', { databaseFactory: factory }), S, L),
        'Count'
      )
    const streams = new KafkaStreams(
      topology,
      {
        applicationId,
        stateDir,
        commitIntervalMs: 100,
        pollMs: 50,
        fetchMaxWaitMs: 50,
        sessionTimeoutMs: 1000,
        heartbeatIntervalMs: 100
      },
      { client: kafka.client() }
    )
    try {
      await streams.start()
      const restored = '0\n1\n' + `${changelog} 0 49\n`
      await eventually(() => existsSync(checkpoint) && readFileSync(checkpoint, 'utf8') === restored)
      const lastRestoreWrite = writes.findLastIndex(w => !w.sync)
      expect(lastRestoreWrite, 'the restore wrote to RocksDB').to.be.at.least(0)
      const sync = writes.findIndex((w, i) => i > lastRestoreWrite && w.sync)
      expect(sync, 'a WAL sync after the last restore write').to.be.greaterThan(lastRestoreWrite)
      expect(writes[sync]!.probe, 'the sync came before the checkpoint that covers the restore').to.not.equal(restored)
    } finally {
      await streams.close()
      kafka.close()
    }
  })
})
