/**
 * exactly_once_v2 on a real broker (@kstreams/platformatic): a clean restart of a task with two
 * RocksDB stores, one of which never wrote, restores only the changelog tail of the other. The
 * checkpoint written at the clean close names both stores, the one without a changelog offset as
 * OFFSET_UNKNOWN (-4); without that entry the restart counts the task as corrupted (local state,
 * no checkpoint, under exactly-once), wipes it and restores everything.
 */
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { KafkaStreams, QueryableStoreTypes, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, ProcessorContext, Record } from '@kstreams/core'
import { platformatic } from '@kstreams/platformatic'
import { RocksDBStores } from '@kstreams/rocksdb'
import { Stores } from '@kstreams/stores'
import { bootstrapServers, createTopics, produce, tempDir, unique, waitFor } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

/** `input` -> a count per key in `A`; `B` is never written. */
function twoStores(input: string): Topology {
  return new Topology()
    .addSource('In', input, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'Count',
      () => {
        let a: KeyValueStore<string, number>
        return {
          init(ctx: ProcessorContext<never, never>) {
            a = ctx.getStateStore('A')
            ctx.getStateStore('B')
          },
          process(r: Record<string, string>) {
            a.put(r.key, (a.get(r.key) ?? 0) + 1)
          }
        }
      },
      'In'
    )
    .addStateStore(Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('A'), S, L), 'Count')
    .addStateStore(Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('B'), S, L), 'Count')
}

describe('exactly_once_v2: a clean restart restores only the changelog tail (real broker, platformatic)', function () {
  this.timeout(120_000)

  it('with a RocksDB store that never wrote beside one that did', async () => {
    const applicationId = unique('eos-clean-restart')
    const input = `${applicationId}-input`
    await createTopics([{ topic: input, numPartitions: 1 }])
    const dir = await tempDir('kstreams-eos-clean-restart')
    const restores: string[] = []
    const app = (): KafkaStreams => {
      const streams = new KafkaStreams(
        twoStores(input),
        {
          applicationId,
          bootstrapServers: bootstrapServers(),
          stateDir: dir.path,
          processingGuarantee: 'exactly_once_v2',
          commitIntervalMs: 200
        },
        { client: platformatic() }
      )
      streams.setGlobalStateRestoreListener({
        onRestoreStart: (_tp, store, start, end) => restores.push(`${store} from ${start} to ${end}`),
        onRestoreEnd: (_tp, store, total) => restores.push(`${store} restored ${total}`)
      })
      return streams
    }
    const countOf = (streams: KafkaStreams, key: string): number | null =>
      streams.store({ storeName: 'A', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get(key)
    let streams = app()
    try {
      await streams.start()
      await produce(
        input,
        Array.from({ length: 200 }, (_, i) => ({ key: `k${i}`, value: 'x' }))
      )
      await waitFor('the 200 records counted', () => streams.state() === 'RUNNING' && countOf(streams, 'k199') === 1, 60_000)
      await streams.close()
      const checkpoint = readFileSync(join(dir.path, applicationId, '0_0', '.checkpoint'), 'utf8')
      const checkpointed = Number(/-A-changelog 0 (\d+)/.exec(checkpoint)?.[1])

      restores.length = 0
      streams = app()
      await streams.start()
      await waitFor('RUNNING after the restart', () => streams.state() === 'RUNNING', 60_000)
      const a = restores.filter(r => r.startsWith('A '))
      expect(a[0], 'A restores from its checkpoint').to.match(new RegExp(`^A from ${checkpointed + 1} to \\d+$`))
      expect(a[1], 'only the transaction markers are left to read').to.equal('A restored 0')
      expect(
        restores.filter(r => r.startsWith('B ')),
        'B, empty, from the beginning'
      ).to.deep.equal(['B from 0 to 0', 'B restored 0'])
      expect(checkpoint).to.contain(`${applicationId}-B-changelog 0 -4\n`)
      expect(countOf(streams, 'k0')).to.equal(1)
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})
