/**
 * A TaskManager without a broker, for the task manager tests: an in-memory log stands in for the
 * changelog and input topics, over a counting topology whose store `counts` is built by a given
 * supplier. Several task managers (threads) may share a log and a StateDirectory.
 */
import { Headers, KeyValueStoreBuilder, ManualClock, Serdes, Topology, resolveStreamsConfig, silentLogger } from '../../../src/index.js'
import type { KeyValueStore, ProcessorContext, Record } from '../../../src/index.js'
import { TOPOLOGY_DEF } from '../../../src/internal.js'
import { StreamsMetricsRegistry } from '../../../src/metrics/streams-metrics-registry.js'
import { ChangelogReader } from '../../../src/runtime/changelog-reader.js'
import { KafkaRecordCollector } from '../../../src/runtime/kafka-record-collector.js'
import type { FetchedBatch, ProducedRecord, ProducerPort, SendResult, TopicPartition } from '../../../src/runtime/kafka/ports.js'
import type {
  MainConsumer as GroupConsumerPort,
  PartitionReader as PartitionReaderPort
} from '../../../src/runtime/consumer/consumer-api.js'
import { StateDirectory } from '../../../src/runtime/state/state-directory.js'
import { TaskManager } from '../../../src/runtime/task-manager.js'
import { ThreadCache } from '../../../src/state/cache/thread-cache.js'
import type { KeyValueBytesStore } from '../../../src/state/key-value-store.js'

const S = Serdes.String()
export const CHANGELOG = 'app-counts-changelog'
const key = (topic: string, partition: number): string => `${topic}-${partition}`

/** Topic partitions as arrays of key/value pairs: what the producer writes, the reader reads. */
export class FakeLog {
  readonly partitions = new Map<string, Array<{ key: Buffer | null; value: Buffer | null }>>()
  /** Log-start offsets (records before them are deleted); 0 when not set. */
  readonly starts = new Map<string, number>()

  /** DeleteRecords: the records before `offset` are gone. */
  deleteBefore(topic: string, partition: number, offset: number): void {
    this.starts.set(key(topic, partition), offset)
  }

  start(topic: string, partition: number): number {
    return this.starts.get(key(topic, partition)) ?? 0
  }

  of(topic: string, partition: number): Array<{ key: Buffer | null; value: Buffer | null }> {
    let records = this.partitions.get(key(topic, partition))
    if (records === undefined) this.partitions.set(key(topic, partition), (records = []))
    return records
  }

  append(topic: string, partition: number, k: string, v: string): void {
    this.of(topic, partition).push({ key: Buffer.from(k), value: Buffer.from(v) })
  }

  text(topic: string, partition: number): string[] {
    return this.of(topic, partition).map(r => `${r.key?.toString()}=${r.value?.toString()}`)
  }
}

class FakeProducer implements ProducerPort {
  constructor(readonly log: FakeLog) {}
  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    const result: SendResult = new Map()
    for (const r of records) {
      const partition = this.log.of(r.topic, r.partition)
      partition.push({ key: r.key, value: r.value })
      result.set(key(r.topic, r.partition), partition.length - 1)
    }
    return result
  }

  async close(): Promise<void> {}
}

/**
 * Reads two records per partition and poll. A position outside the log (before its start, after
 * its end) is reset to the log start and reported as an empty batch there, as the runtime's
 * AssignedPartitionReader does.
 */
class FakeReader implements PartitionReaderPort {
  positions = new Map<string, TopicPartition & { offset: number }>()
  constructor(readonly log: FakeLog) {}
  assign(partitions: ReadonlyArray<TopicPartition & { offset: number | undefined }>): void {
    this.positions = new Map(partitions.map(p => [key(p.topic, p.partition), { ...p, offset: p.offset ?? 0 }]))
  }

  async poll(): Promise<FetchedBatch[]> {
    const batches: FetchedBatch[] = []
    for (const p of this.positions.values()) {
      const all = this.log.of(p.topic, p.partition)
      const start = this.log.start(p.topic, p.partition)
      if (p.offset < start || p.offset > all.length) {
        p.offset = start
        batches.push({
          topic: p.topic,
          partition: p.partition,
          records: [],
          highWatermark: start,
          nextOffset: start,
          logStartOffset: start
        })
        continue
      }
      const to = Math.min(all.length, p.offset + 2)
      const records = all.slice(p.offset, to).map((r, i) => ({
        topic: p.topic,
        partition: p.partition,
        offset: p.offset + i,
        timestamp: 0,
        key: r.key,
        value: r.value,
        headers: new Headers()
      }))
      p.offset = to
      batches.push({ topic: p.topic, partition: p.partition, records, highWatermark: all.length, nextOffset: to, logStartOffset: start })
    }
    return batches
  }

  async close(): Promise<void> {}
}

function consumer(): GroupConsumerPort {
  return {
    pause: () => {},
    resume: () => {},
    seek: () => {},
    resetToCommitted: () => {},
    commit: async () => {},
    committed: async () => new Map()
  }
}

export interface SetupOptions {
  /** The topics, shared by the threads of one instance (default: a new log). */
  readonly log?: FakeLog
  /** The state directory, shared by the threads of one instance (default: a new one on the path). */
  readonly stateDirectory?: StateDirectory
  readonly taskTimeoutMs?: number
  readonly processingGuarantee?: 'at_least_once' | 'exactly_once_v2'
}

/** One thread's TaskManager over a counting topology whose store `counts` is built by `newStore`. */
export function setup(stateDir: string, newStore: () => KeyValueBytesStore, options: SetupOptions = {}) {
  const log = options.log ?? new FakeLog()
  const built: KeyValueBytesStore[] = []
  const supplier = {
    name: 'counts',
    metricsScope: 'in-memory',
    get: () => {
      const s = newStore()
      built.push(s)
      return s
    }
  }
  const topology = new Topology()
    .addSource('src', 'in', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'count',
      () => {
        let store: KeyValueStore<string, string>
        return {
          init(ctx: ProcessorContext<string, string>) {
            store = ctx.getStateStore('counts')
          },
          process(r: Record<string, string>) {
            store.put(r.key, String(Number(store.get(r.key) ?? '0') + 1))
          }
        }
      },
      'src'
    )
    .addStateStore(new KeyValueStoreBuilder(supplier, S, S).withCachingEnabled(), 'count')
  const events: string[] = []
  const metrics = new StreamsMetricsRegistry({ recordingLevel: 'INFO', clock: new ManualClock(0), threadId: 't1' })
  const cache = new ThreadCache({ maxCacheSizeBytes: 1024 * 1024 })
  const admin = {
    endOffsets: async (tps: readonly TopicPartition[]) =>
      new Map(tps.map(p => [key(p.topic, p.partition), log.of(p.topic, p.partition).length])),
    beginningOffsets: async (tps: readonly TopicPartition[]) =>
      new Map(tps.map(p => [key(p.topic, p.partition), log.start(p.topic, p.partition)]))
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
    config: resolveStreamsConfig({
      applicationId: 'app',
      taskTimeoutMs: options.taskTimeoutMs,
      processingGuarantee: options.processingGuarantee
    }),
    clock: new ManualClock(0),
    logger: silentLogger,
    stateDirectory: options.stateDirectory ?? new StateDirectory(stateDir, 'app'),
    collector: new KafkaRecordCollector({
      producer: new FakeProducer(log),
      admin: { partitionCounts: async topics => new Map(topics.map(t => [t, 1])) }
    }),
    consumer: consumer(),
    changelogReader,
    globalStores: new Map(),
    cache,
    metrics,
    currentLag: () => 0
  })
  /** An assignment as the stream thread applies it: handled in its poll, then the tasks' committed metadata read. */
  const assign = async (...args: Parameters<TaskManager['handleAssignment']>): Promise<void> => {
    await tm.handleAssignment(...args)
    await tm.initializeMetadata()
  }
  /** A restore step, then (as at the thread's next iteration) the committed metadata of tasks created again (a wiped one). */
  const step = async (): Promise<void> => {
    await tm.restoreStep(0)
    await tm.initializeMetadata()
  }
  return { tm, assign, step, log, built, events, metrics, cache }
}
