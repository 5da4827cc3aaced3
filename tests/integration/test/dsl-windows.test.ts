/**
 * DSL windowed aggregations on a real broker with RocksDB stores: emit-on-window-close (throttled
 * by the 1 s wall-clock emit interval, as in Kafka Streams) and suppress(untilWindowCloses) write
 * each window's final count once, after stream time passes its end plus the grace period.
 */
import { expect } from 'chai'
import { KafkaStreams, KeyValue, Serdes } from '@kstreams/core'
import { BufferConfig, Consumed, EmitStrategy, Grouped, Materialized, Produced, StreamsBuilder, Suppressed, TimeWindows } from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'
import { bootstrapServers, createTopics, kafka, readUntil, tempDir, unique, waitFor } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

describe('DSL windows on a real broker (RocksDB stores)', function () {
  this.timeout(120000)

  it('onWindowClose and suppress(untilWindowCloses) write each closed window once, with its final count', async () => {
    const prefix = unique('dslwin')
    await createTopics([{ topic: `${prefix}-clicks`, numPartitions: 1 }, { topic: `${prefix}-final`, numPartitions: 1 }, { topic: `${prefix}-suppressed`, numPartitions: 1 }])
    const builder = new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })
    const grouped = builder.stream(`${prefix}-clicks`, Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
    const windows = TimeWindows.ofSizeAndGrace(10_000, 1_000)
    grouped.windowedBy(windows).emitStrategy(EmitStrategy.onWindowClose())
      .count(Materialized.as<string, number>('final-counts').withKeySerde(S))
      .toStream().map((k, v) => KeyValue.pair(`${k.key}@${k.window.start}`, v)).to(`${prefix}-final`, Produced.with(S, L))
    grouped.windowedBy(windows)
      .count(Materialized.as<string, number>('counts').withKeySerde(S))
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream().map((k, v) => KeyValue.pair(`${k.key}@${k.window.start}`, v)).to(`${prefix}-suppressed`, Produced.with(S, L))
    const state = await tempDir('kstreams-dslwin')
    const streams = new KafkaStreams(builder.build(), { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: state.path, commitIntervalMs: 200 })
    const producer = kafka().producer()
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await producer.connect()
      const send = async (records: Array<[string, number]>): Promise<void> => {
        await producer.send({ topic: `${prefix}-clicks`, messages: records.map(([key, ts]) => ({ key, value: 'click', timestamp: String(ts) })) })
      }
      await send([['a', 1000], ['b', 2000], ['a', 5000], ['a', 9000], ['b', 12000], ['c', 31000]])
      // The emit pass runs at most once per second of wall-clock time: a later record triggers it.
      await new Promise(resolve => setTimeout(resolve, 1500))
      await send([['c', 32000]])
      const decode = (k: Buffer | null, v: Buffer | null): string => `${k!.toString()}=${Number(v!.readBigInt64BE())}`
      const expected = ['a@0=3', 'b@0=1', 'b@10000=1']
      const final = await readUntil(`${prefix}-final`, decode, r => r.length >= 3, 60000)
      const suppressed = await readUntil(`${prefix}-suppressed`, decode, r => r.length >= 3, 60000)
      expect([...final].sort()).to.deep.equal(expected)
      expect([...suppressed].sort()).to.deep.equal(expected)
    } finally {
      await producer.disconnect()
      await streams.close()
      await state.remove()
    }
  })
})
