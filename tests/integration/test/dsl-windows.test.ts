/**
 * DSL windowed aggregations on a real broker with RocksDB stores: emit-on-window-close (throttled
 * by the 1 s wall-clock emit interval, as in Kafka Streams) and suppress(untilWindowCloses) write
 * each window's final count once, after stream time passes its end plus the grace period.
 */
import { expect } from 'chai'
import { InteractiveQueryServer, KafkaStreams, KeyValue, Serdes } from '@kstreams/core'
import {
  BufferConfig,
  Consumed,
  EmitStrategy,
  Grouped,
  Materialized,
  Produced,
  StreamsBuilder,
  Suppressed,
  TimeWindows
} from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'
import {
  bootstrapServers,
  createTopics,
  kafka,
  readUntil,
  recordCount,
  sleep,
  tempDir,
  unique,
  waitFor,
  freePort,
  getJson,
  testClient
} from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()
/**
 * Event times are offsets from T0, a recent minute: the broker deletes windowed changelog records
 * (cleanup.policy compact,delete, retention.ms = retention + 1 day) whose timestamps are older than
 * that, so records from 1970 would vanish from a changelog before a restore reads them.
 */
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 600_000

describe('DSL windows on a real broker (RocksDB stores)', function () {
  this.timeout(120000)

  it("onWindowClose and suppress(untilWindowCloses) write each closed window once, with its final count; the HTTP endpoint answers a key's windows", async () => {
    const prefix = unique('dslwin')
    await createTopics([
      { topic: `${prefix}-clicks`, numPartitions: 1 },
      { topic: `${prefix}-final`, numPartitions: 1 },
      { topic: `${prefix}-suppressed`, numPartitions: 1 }
    ])
    const builder = new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })
    const grouped = builder.stream(`${prefix}-clicks`, Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
    const windows = TimeWindows.ofSizeAndGrace(10_000, 1_000)
    grouped
      .windowedBy(windows)
      .emitStrategy(EmitStrategy.onWindowClose())
      .count(Materialized.as<string, number>('final-counts').withKeySerde(S))
      .toStream()
      .map((k, v) => KeyValue.pair(`${k.key}@${k.window.start - T0}`, v))
      .to(`${prefix}-final`, Produced.with(S, L))
    grouped
      .windowedBy(windows)
      .count(Materialized.as<string, number>('counts').withKeySerde(S))
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .map((k, v) => KeyValue.pair(`${k.key}@${k.window.start - T0}`, v))
      .to(`${prefix}-suppressed`, Produced.with(S, L))
    const state = await tempDir('kstreams-dslwin')
    const port = await freePort()
    const streams = new KafkaStreams(
      builder.build(),
      {
        applicationId: `${prefix}-app`,
        bootstrapServers: bootstrapServers(),
        stateDir: state.path,
        commitIntervalMs: 200,
        applicationServer: `127.0.0.1:${port}`
      },
      { client: testClient() }
    )
    const server = new InteractiveQueryServer(streams, { keySerializer: S })
    const producer = kafka().producer()
    try {
      await server.start()
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await producer.connect()
      const send = async (records: Array<[string, number]>): Promise<void> => {
        await producer.send({
          topic: `${prefix}-clicks`,
          messages: records.map(([key, ts]) => ({ key, value: 'click', timestamp: String(T0 + ts) }))
        })
      }
      await send([
        ['a', 1000],
        ['b', 2000],
        ['a', 5000],
        ['a', 9000],
        ['b', 12000],
        ['c', 31000]
      ])
      // The emit pass runs at most once per second of wall-clock time: a record processed more than
      // a second after these triggers it. Wait until they were processed (c's window is in the store)
      // rather than a fixed time after sending them: a slow machine may process them late.
      await waitFor(
        'the first records processed',
        async () => {
          const c = await getJson(port, `/stores/counts/keys/c/windows?from=${T0}`)
          return c.status === 200 && (c.body.windows as unknown[]).length > 0
        },
        60000
      )
      await sleep(1500)
      await send([['c', 32000]])
      const decode = (k: Buffer | null, v: Buffer | null): string => `${k!.toString()}=${Number(v!.readBigInt64BE())}`
      const expected = ['a@0=3', 'b@0=1', 'b@10000=1']
      const final = await readUntil(`${prefix}-final`, decode, r => r.length >= 3, 60000)
      const suppressed = await readUntil(`${prefix}-suppressed`, decode, r => r.length >= 3, 60000)
      expect([...final].sort()).to.deep.equal(expected)
      expect([...suppressed].sort()).to.deep.equal(expected)
      // The store keeps windows for size + grace of stream time (32 s now): only c's window is left.
      const windows = await getJson(port, `/stores/counts/keys/c/windows?from=${T0}`)
      expect(windows.status).to.equal(200)
      expect(windows.body.windows).to.deep.equal([{ start: T0 + 30000, end: T0 + 40000, value: 2 }])
      expect((await getJson(port, '/stores/counts/keys/a/windows')).body.windows).to.deep.equal([])
      expect((await getJson(port, `/stores/counts/keys/c/windows?from=${T0 + 30001}`)).body.windows).to.deep.equal([])
      expect((await getJson(port, '/stores/counts/keys/a/windows?from=x')).status).to.equal(400)
    } finally {
      await server.close()
      await producer.disconnect()
      await streams.close()
      await state.remove()
    }
  })

  it('onWindowClose after a restart does not emit a window twice: the last emitted close time is committed with the offsets (KIP-825)', async () => {
    const prefix = unique('dslwinrestart')
    await createTopics([
      { topic: `${prefix}-clicks`, numPartitions: 1 },
      { topic: `${prefix}-final`, numPartitions: 1 }
    ])
    const build = () => {
      const builder = new StreamsBuilder()
      builder
        .stream(`${prefix}-clicks`, Consumed.with(S, S))
        .groupByKey(Grouped.with(S, S))
        .windowedBy(TimeWindows.ofSizeAndGrace(10_000, 1_000))
        .emitStrategy(EmitStrategy.onWindowClose())
        // A long retention keeps emitted windows in the store: a restart must not emit them again.
        .count(Materialized.as<string, number>('final-counts').withKeySerde(S).withRetention(3_600_000))
        .toStream()
        .map((k, v) => KeyValue.pair(`${k.key}@${k.window.start - T0}`, v))
        .to(`${prefix}-final`, Produced.with(S, L))
      return builder.build()
    }
    const config = (dir: string) => ({
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir: dir,
      commitIntervalMs: 100,
      windowedAggregationEmitIntervalMs: 0
    })
    const producer = kafka().producer()
    await producer.connect()
    const send = async (records: Array<[string, number]>): Promise<void> => {
      await producer.send({
        topic: `${prefix}-clicks`,
        messages: records.map(([key, ts]) => ({ key, value: 'click', timestamp: String(T0 + ts) }))
      })
    }
    const decode = (k: Buffer | null, v: Buffer | null): string => `${k!.toString()}=${Number(v!.readBigInt64BE())}`
    const dirs = [await tempDir('kstreams-dslwinrestart'), await tempDir('kstreams-dslwinrestart')]
    try {
      const first = new KafkaStreams(build(), config(dirs[0]!.path), { client: testClient() })
      await first.start()
      await waitFor('RUNNING', () => first.state() === 'RUNNING', 60000)
      await send([
        ['a', 1000],
        ['b', 2000],
        ['c', 31000]
      ])
      expect((await readUntil(`${prefix}-final`, decode, r => r.length >= 2, 60000)).sort()).to.deep.equal(['a@0=1', 'b@0=1'])
      await first.close({ leaveGroup: true })
      // A new instance on an empty state dir: the store is restored from its changelog, the close time from the commit.
      const second = new KafkaStreams(build(), config(dirs[1]!.path), { client: testClient() })
      await second.start()
      await waitFor('RUNNING', () => second.state() === 'RUNNING', 60000)
      await send([
        ['d', 32000],
        ['e', 45000]
      ])
      const all = await readUntil(`${prefix}-final`, decode, r => r.length >= 4, 60000)
      await sleep(1000) // time for a window emitted twice to arrive
      // Everything written by now, however long a new reader takes to join on a slow machine.
      const written = await recordCount(`${prefix}-final`)
      const settled = await readUntil(`${prefix}-final`, decode, r => r.length >= written, 60000)
      await second.close()
      expect(all.slice(2).sort()).to.deep.equal(['c@30000=1', 'd@30000=1'])
      expect(settled.sort(), 'each window exactly once').to.deep.equal(['a@0=1', 'b@0=1', 'c@30000=1', 'd@30000=1'])
    } finally {
      await producer.disconnect()
      for (const d of dirs) await d.remove()
    }
  })
})
