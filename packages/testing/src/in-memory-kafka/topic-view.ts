/**
 * A test's live, read-only view of one topic of an InMemoryKafka: its partitions' records (as a
 * consumer at either isolation level would see them now, without transaction markers), offsets,
 * leaders and configs.
 */
import { StreamsError } from '@kstreams/core'
import type { FetchedRecord, IsolationLevel } from '@kstreams/core'
import type { PartitionLog } from './partition-log.js'
import type { TopicEntry, TopicRegistry } from './topic-registry.js'

/** A record of a topic, with the state of the transaction that wrote it, if any. */
export interface TopicRecord extends FetchedRecord {
  /** The state of the transaction that wrote it; undefined for a record written outside one. */
  readonly transaction: 'ongoing' | 'committed' | 'aborted' | undefined
}

/** A test's live, read-only view of one topic of an InMemoryKafka: records, offsets, leaders, configs. */
export class TopicView {
  /** The topic's name. */
  readonly name: string
  readonly #topics: TopicRegistry

  /** @internal */
  constructor(topics: TopicRegistry, name: string) {
    this.#topics = topics
    this.name = name
  }

  /** How many partitions the topic has. */
  get partitions(): number {
    return this.#topic().logs.length
  }

  /** The topic's configs. */
  get configs(): Readonly<Record<string, string>> {
    return this.#topic().configs
  }

  /** The partition's data records from its log start (READ_COMMITTED: committed ones below the last stable offset). */
  records(partition: number, options: { readonly isolationLevel?: IsolationLevel } = {}): TopicRecord[] {
    return this.#log(partition)
      .entries(options.isolationLevel)
      .map(e => ({
        topic: this.name,
        partition,
        offset: e.offset,
        timestamp: e.timestamp,
        key: e.key === null ? null : Buffer.from(e.key),
        value: e.value === null ? null : Buffer.from(e.value),
        headers: e.headers.copy(),
        transaction: e.transaction?.status
      }))
  }

  /** Every partition's records, partition by partition. */
  allRecords(options: { readonly isolationLevel?: IsolationLevel } = {}): TopicRecord[] {
    return Array.from({ length: this.partitions }, (_, p) => this.records(p, options)).flat()
  }

  /** The partition's high watermark: the offset after its last record. */
  highWatermark(partition: number): number {
    return this.#log(partition).highWatermark
  }

  /** The partition's last stable offset: the first offset of an open transaction, else the high watermark. */
  lastStableOffset(partition: number): number {
    return this.#log(partition).lastStableOffset
  }

  /** The partition's log-start offset (moved forward by DeleteRecords). */
  logStartOffset(partition: number): number {
    return this.#log(partition).logStartOffset
  }

  /** The node that leads the partition. */
  leader(partition: number): number {
    this.#log(partition)
    return this.#topic().leaders[partition]!
  }

  #topic(): TopicEntry {
    const topic = this.#topics.get(this.name)
    if (topic === undefined) throw new StreamsError('UNKNOWN_TOPIC', `topic ${this.name} does not exist (any more)`)
    return topic
  }

  #log(partition: number): PartitionLog {
    const log = this.#topic().logs[partition]
    if (log === undefined)
      throw new StreamsError('ILLEGAL_ARGUMENT', `topic ${this.name} has no partition ${partition} (it has ${this.partitions})`)
    return log
  }
}
