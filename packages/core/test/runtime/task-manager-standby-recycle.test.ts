/**
 * A standby task that becomes active, driven through the TaskManager without a broker: an
 * in-memory log stands in for the changelog and input topics. In-memory stores are recycled
 * (same store objects, restore of the tail only, re-initialised with the active task's cache,
 * changelog writer and metrics); persistent stores close and reopen from the checkpoint.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Headers, KeyValueStoreBuilder, ManualClock, Serdes, Topology, resolveStreamsConfig, silentLogger } from '../../src/index.js'
import type { KeyValueStore, ProcessorContext, Record } from '../../src/index.js'
import { TOPOLOGY_DEF } from '../../src/internal.js'
import { StreamsMetricsRegistry } from '../../src/metrics/streams-metrics-registry.js'
import { ChangelogReader } from '../../src/runtime/changelog-reader.js'
import { KafkaRecordCollector } from '../../src/runtime/kafka-record-collector.js'
import type { FetchedBatch, ProducedRecord, ProducerPort, SendResult, TopicPartition } from '../../src/runtime/kafka/ports.js'
import type { MainConsumer as GroupConsumerPort, PartitionReader as PartitionReaderPort } from '../../src/runtime/consumer/consumer-api.js'
import { StateDirectory } from '../../src/runtime/state/state-directory.js'
import { TaskManager } from '../../src/runtime/task-manager.js'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import type { KeyValueBytesStore } from '../../src/state/key-value-store.js'
import { SimpleBytesStore } from '../state/helpers/simple-bytes-store.js'

const S = Serdes.String()
const CHANGELOG = 'app-counts-changelog'
const key = (topic: string, partition: number): string => `${topic}-${partition}`

/** Topic partitions as arrays of key/value pairs: what the producer writes, the reader reads. */
class FakeLog {
  readonly partitions = new Map<string, Array<{ key: Buffer | null, value: Buffer | null }>>()
  of (topic: string, partition: number): Array<{ key: Buffer | null, value: Buffer | null }> {
    let records = this.partitions.get(key(topic, partition))
    if (records === undefined) this.partitions.set(key(topic, partition), records = [])
    return records
  }

  append (topic: string, partition: number, k: string, v: string): void {
    this.of(topic, partition).push({ key: Buffer.from(k), value: Buffer.from(v) })
  }

  text (topic: string, partition: number): string[] {
    return this.of(topic, partition).map(r => `${r.key?.toString()}=${r.value?.toString()}`)
  }
}

class FakeProducer implements ProducerPort {
  constructor (readonly log: FakeLog) {}
  async send (records: readonly ProducedRecord[]): Promise<SendResult> {
    const result: SendResult = new Map()
    for (const r of records) {
      const partition = this.log.of(r.topic, r.partition)
      partition.push({ key: r.key, value: r.value })
      result.set(key(r.topic, r.partition), partition.length - 1)
    }
    return result
  }

  async close (): Promise<void> {}
}

/** Reads two records per partition and poll. */
class FakeReader implements PartitionReaderPort {
  positions = new Map<string, TopicPartition & { offset: number }>()
  constructor (readonly log: FakeLog) {}
  assign (partitions: ReadonlyArray<TopicPartition & { offset: number | undefined }>): void {
    this.positions = new Map(partitions.map(p => [key(p.topic, p.partition), { ...p, offset: p.offset ?? 0 }]))
  }

  async poll (): Promise<FetchedBatch[]> {
    const batches: FetchedBatch[] = []
    for (const p of this.positions.values()) {
      const all = this.log.of(p.topic, p.partition)
      const to = Math.min(all.length, p.offset + 2)
      const records = all.slice(p.offset, to).map((r, i) => ({ topic: p.topic, partition: p.partition, offset: p.offset + i, timestamp: 0, key: r.key, value: r.value, headers: new Headers() }))
      p.offset = to
      batches.push({ topic: p.topic, partition: p.partition, records, highWatermark: all.length, nextOffset: to, logStartOffset: 0 })
    }
    return batches
  }

  async close (): Promise<void> {}
}

function consumer (): GroupConsumerPort {
  return {
    pause: () => {},
    resume: () => {},
    seek: () => {},
    commit: async () => {},
    committed: async () => new Map()
  }
}

/** One thread's TaskManager over a counting topology whose store `counts` is built by `newStore`. */
function setup (stateDir: string, newStore: () => KeyValueBytesStore) {
  const log = new FakeLog()
  const built: KeyValueBytesStore[] = []
  const supplier = { name: 'counts', metricsScope: 'in-memory', get: () => { const s = newStore(); built.push(s); return s } }
  const topology = new Topology()
    .addSource('src', 'in', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('count', () => {
      let store: KeyValueStore<string, string>
      return {
        init (ctx: ProcessorContext<string, string>) { store = ctx.getStateStore('counts') },
        process (r: Record<string, string>) { store.put(r.key, String(Number(store.get(r.key) ?? '0') + 1)) }
      }
    }, 'src')
    .addStateStore(new KeyValueStoreBuilder(supplier, S, S).withCachingEnabled(), 'count')
  const events: string[] = []
  const metrics = new StreamsMetricsRegistry({ recordingLevel: 'INFO', clock: new ManualClock(0), threadId: 't1' })
  const cache = new ThreadCache({ maxCacheSizeBytes: 1024 * 1024 })
  const admin = {
    endOffsets: async (tps: readonly TopicPartition[]) => new Map(tps.map(p => [key(p.topic, p.partition), log.of(p.topic, p.partition).length])),
    beginningOffsets: async (tps: readonly TopicPartition[]) => new Map(tps.map(p => [key(p.topic, p.partition), 0]))
  }
  const changelogReader = new ChangelogReader({
    reader: new FakeReader(log),
    admin,
    listener: {
      onRestoreStart: (_tp, store, start, end) => events.push(`start ${store} ${start} ${end}`),
      onRestoreEnd: (_tp, store, total) => events.push(`end ${store} ${total}`)
    }
  })
  const tm = new TaskManager({
    topology: topology[TOPOLOGY_DEF](),
    config: resolveStreamsConfig({ applicationId: 'app' }),
    clock: new ManualClock(0),
    logger: silentLogger,
    stateDirectory: new StateDirectory(stateDir, 'app'),
    collector: new KafkaRecordCollector({ producer: new FakeProducer(log), admin: { partitionCounts: async (topics) => new Map(topics.map(t => [t, 1])) } }),
    consumer: consumer(),
    changelogReader,
    globalStores: new Map(),
    cache,
    metrics,
    currentLag: () => 0
  })
  return { tm, log, built, events, metrics, cache }
}

const get = (store: unknown, k: string): string | null => (store as KeyValueStore<string, string>).get(k)

/** Standby on 0_0 that applied the five records of the changelog, then two more records are written. */
async function standbyThenTail (ctx: ReturnType<typeof setup>): Promise<unknown> {
  for (const [k, v] of [['a', '1'], ['b', '1'], ['a', '2'], ['c', '1'], ['b', '2']] as const) ctx.log.append(CHANGELOG, 0, k, v)
  await ctx.tm.handleAssignment(new Map(), new Map([['0_0', []]]))
  for (let i = 0; i < 4; i++) await ctx.tm.restoreStep(0)
  const [standby] = ctx.tm.queryableStores('counts', true)
  expect(ctx.tm.standbyTaskIds.map(id => id.toString())).to.deep.equal(['0_0'])
  expect(['a', 'b', 'c'].map(k => get(standby!.store, k))).to.deep.equal(['2', '2', '1'])
  expect(ctx.events).to.deep.equal([]) // a standby reports no restore
  ctx.log.append(CHANGELOG, 0, 'a', '3')
  ctx.log.append(CHANGELOG, 0, 'd', '1')
  return standby!.store
}

async function becomeActive (ctx: ReturnType<typeof setup>): Promise<void> {
  await ctx.tm.handleAssignment(new Map([['0_0', [{ topic: 'in', partition: 0 }]]]), new Map())
  for (let i = 0; i < 4 && ctx.tm.hasRestoringTasks; i++) await ctx.tm.restoreStep(0)
  expect(ctx.tm.hasRestoringTasks).to.equal(false)
  expect(ctx.tm.standbyTaskIds).to.deep.equal([])
}

describe('TaskManager: a standby that becomes active', () => {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kstreams-recycle-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  it('with in-memory stores is recycled: the same stores restore only the tail, then process with the task cache, changelog and metrics', async () => {
    const ctx = setup(dir, () => new SimpleBytesStore('counts'))
    const standbyStore = await standbyThenTail(ctx)
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 5 7', 'end counts 2'])
    expect(ctx.built).to.have.length(1)
    const store = ctx.tm.storesOf('0_0')!.get('counts')
    expect(store).to.equal(standbyStore)
    expect(['a', 'b', 'c', 'd'].map(k => get(store, k))).to.deep.equal(['3', '2', '1', '1'])

    ctx.tm.addBatch({ topic: 'in', partition: 0, records: [{ topic: 'in', partition: 0, offset: 0, timestamp: 10, key: Buffer.from('a'), value: Buffer.from('x'), headers: new Headers() }], highWatermark: 1, nextOffset: 1, logStartOffset: 0 })
    expect(ctx.tm.process(10)).to.equal(1)
    expect(get(store, 'a')).to.equal('4')
    // The caching layer got the thread cache at re-init: the reads above and the write are cached.
    expect(ctx.cache.size()).to.equal(4)
    expect(ctx.log.text(CHANGELOG, 0)).to.have.length(7)
    await ctx.tm.commit(true)
    expect(ctx.log.text(CHANGELOG, 0).slice(7)).to.deep.equal(['a=4']) // the changelog writer of the active task
    const puts = ctx.metrics.metrics().find(m => m.name === 'put-rate' && m.tags['in-memory-state-id'] === 'counts')
    expect(puts?.tags).to.deep.equal({ 'thread-id': 't1', 'task-id': '0_0', 'in-memory-state-id': 'counts' })
    await ctx.tm.shutdown(true)
    expect(ctx.built[0]!.isOpen()).to.equal(false)
  })

  it('with a persistent store closes (checkpointed) and the active task reopens a new store from the checkpoint', async () => {
    const ctx = setup(dir, () => Object.defineProperty(new SimpleBytesStore('counts'), 'persistent', { value: true }))
    const standbyStore = await standbyThenTail(ctx)
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 5 7', 'end counts 2'])
    expect(ctx.built).to.have.length(2)
    expect(ctx.built[0]!.isOpen()).to.equal(false)
    expect(ctx.tm.storesOf('0_0')!.get('counts')).to.not.equal(standbyStore)
    await ctx.tm.shutdown(true)
  })

  it('with an in-memory store that refuses a second init opens a new store and restores it from the beginning', async () => {
    const ctx = setup(dir, () => {
      const store = new SimpleBytesStore('counts')
      const init = store.init.bind(store)
      let inits = 0
      store.init = (context, root) => {
        if (++inits > 1) throw new Error('already open')
        init(context, root)
      }
      return store
    })
    await standbyThenTail(ctx)
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 0 7', 'end counts 7'])
    expect(ctx.built).to.have.length(2)
    expect(ctx.built[0]!.isOpen()).to.equal(false)
    expect(['a', 'b', 'c', 'd'].map(k => get(ctx.tm.storesOf('0_0')!.get('counts'), k))).to.deep.equal(['3', '2', '1', '1'])
    await ctx.tm.shutdown(true)
  })

  it('with in-memory stores that never received a changelog record restores from the beginning', async () => {
    const ctx = setup(dir, () => new SimpleBytesStore('counts'))
    await ctx.tm.handleAssignment(new Map(), new Map([['0_0', []]]))
    await ctx.tm.restoreStep(0)
    ctx.log.append(CHANGELOG, 0, 'a', '1')
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 0 1', 'end counts 1'])
    expect(ctx.built).to.have.length(1)
    expect(get(ctx.tm.storesOf('0_0')!.get('counts'), 'a')).to.equal('1')
    await ctx.tm.shutdown(true)
  })
})
