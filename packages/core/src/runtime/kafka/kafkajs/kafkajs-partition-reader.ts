/**
 * PartitionReaderPort without a consumer group: kafkajs has no manual assignment, so this is a
 * small fetch loop of its own on a kafkajs Cluster (see kafkajs-internals.ts). It owns the
 * position of every assigned partition: one Fetch per partition leader per poll, kafkajs' Batch
 * drops aborted (read_committed) and control records, and the position moves to the end of the
 * last record batch returned (past markers, aborted data and compacted gaps). A position out of
 * range is reset to the earliest offset and reported as an empty batch whose nextOffset is the
 * new position (plus a warning in the log). Leader changes refresh the metadata and retry.
 */
import type { Kafka } from 'kafkajs'
import { IllegalStateError } from '../../../errors.js'
import type { Logger } from '../../../logger.js'
import { tpKey, type FetchedBatch, type PartitionReaderPort, type TopicPartition } from '../ports.js'
import type { ResolvedKafkajsConfig } from './kafkajs-client-config.js'
import { kafkaErrorType, toStreamsError } from './kafkajs-errors.js'
import {
  createBatch, createCluster, ISOLATION_READ_COMMITTED, ISOLATION_READ_UNCOMMITTED, nextOffsetAfter,
  type FetchPartitionResponse, type InternalCluster
} from './kafkajs-internals.js'
import { toFetchedRecord } from './record-conversion.js'

/** Errors after which the cached leaders may be wrong: refresh metadata, then fetch again. */
const STALE_METADATA_TYPES: ReadonlySet<string> = new Set([
  'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION', 'FENCED_LEADER_EPOCH', 'UNKNOWN_LEADER_EPOCH',
  'UNKNOWN_TOPIC_OR_PARTITION', 'REPLICA_NOT_AVAILABLE', 'KAFKA_STORAGE_ERROR', 'OFFSET_NOT_AVAILABLE'
])
const STALE_METADATA_NAMES: ReadonlySet<string> = new Set([
  'KafkaJSBrokerNotFound', 'KafkaJSConnectionError', 'KafkaJSConnectionClosedError',
  'KafkaJSTopicMetadataNotLoaded', 'KafkaJSMetadataNotLoaded', 'KafkaJSRequestTimeoutError', 'KafkaJSLockTimeout'
])
const MAX_ATTEMPTS = 3

/** One assigned partition; replaced (not mutated) by assign(), so a poll in flight sees the change. */
interface Position extends TopicPartition {
  offset: number | undefined
}

export class KafkajsPartitionReader implements PartitionReaderPort {
  readonly #cluster: InternalCluster
  readonly #config: ResolvedKafkajsConfig
  readonly #logger: Logger
  readonly #clientId: string
  readonly #readCommitted: boolean
  #positions = new Map<string, Position>()
  #connected = false
  #closed = false

  constructor (options: { kafka: Kafka, clientId: string, readCommitted: boolean, config: ResolvedKafkajsConfig }) {
    this.#config = options.config
    this.#logger = options.config.logger
    this.#clientId = options.clientId
    this.#readCommitted = options.readCommitted
    this.#cluster = createCluster(options.kafka, {
      metadataMaxAge: options.config.metadataMaxAgeMs,
      isolationLevel: options.readCommitted ? ISOLATION_READ_COMMITTED : ISOLATION_READ_UNCOMMITTED
    })
  }

  assign (partitions: ReadonlyArray<TopicPartition & { offset: number | undefined }>): void {
    this.#requireOpen('assign')
    const next = new Map<string, Position>()
    for (const { topic, partition, offset } of partitions) {
      if (offset !== undefined && (!Number.isSafeInteger(offset) || offset < 0)) {
        throw new IllegalStateError(`assign(): invalid offset ${offset} for ${topic}-${partition}`)
      }
      next.set(tpKey(topic, partition), { topic, partition, offset })
    }
    this.#positions = next
  }

  async poll (maxWaitMs: number): Promise<FetchedBatch[]> {
    this.#requireOpen('poll')
    const positions = [...this.#positions.values()]
    if (positions.length === 0) {
      await new Promise(resolve => setTimeout(resolve, maxWaitMs))
      return []
    }
    try {
      await this.#prepare(positions)
      return await this.#fetchWithRetry(positions, maxWaitMs)
    } catch (error) {
      throw toStreamsError(error, `Partition reader ${this.#clientId} poll`)
    }
  }

  async close (): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#positions = new Map()
    if (this.#connected) await this.#cluster.disconnect()
  }

  /** Connects, loads metadata for the assigned topics and resolves "earliest" positions. */
  async #prepare (positions: readonly Position[]): Promise<void> {
    if (!this.#connected) {
      await this.#cluster.connect()
      this.#connected = true
    }
    await this.#cluster.addMultipleTargetTopics([...new Set(positions.map(p => p.topic))])
    await this.#cluster.refreshMetadataIfNecessary()
    const unresolved = positions.filter(p => p.offset === undefined)
    if (unresolved.length > 0) await this.#resetToEarliest(unresolved)
  }

  async #resetToEarliest (positions: readonly Position[]): Promise<void> {
    const byTopic = new Map<string, Position[]>()
    for (const p of positions) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p])
    const offsets = await this.#cluster.fetchTopicsOffset([...byTopic].map(([topic, list]) => ({
      topic, fromBeginning: true, partitions: list.map(p => ({ partition: p.partition }))
    })))
    for (const { topic, partitions } of offsets) {
      for (const { partition, offset } of partitions) {
        const position = byTopic.get(topic)?.find(p => p.partition === partition)
        if (position !== undefined) position.offset = Number(offset)
      }
    }
  }

  async #fetchWithRetry (positions: readonly Position[], maxWaitMs: number): Promise<FetchedBatch[]> {
    const batches: FetchedBatch[] = []
    let pending = positions
    for (let attempt = 1; pending.length > 0; attempt++) {
      const { byLeader, leaderless } = this.#groupByLeader(pending)
      const failed: Position[] = [...leaderless]
      await Promise.all([...byLeader].map(async ([nodeId, group]) => {
        try {
          batches.push(...await this.#fetchFromBroker(nodeId, group, maxWaitMs))
        } catch (error) {
          const outOfRange = error as { name?: string, topic?: string, partition?: number }
          if (outOfRange.name === 'KafkaJSOffsetOutOfRange') {
            const position = group.find(p => p.topic === outOfRange.topic && p.partition === outOfRange.partition)
            if (position === undefined) throw error
            batches.push(await this.#outOfRange(position))
            failed.push(...group.filter(p => p !== position))
          } else if (STALE_METADATA_TYPES.has(kafkaErrorType(error) ?? '') || STALE_METADATA_NAMES.has(outOfRange.name ?? '')) {
            this.#logger.debug(`Partition reader ${this.#clientId}: ${String((error as Error).message)}, refreshing metadata`)
            failed.push(...group)
          } else {
            throw error
          }
        }
      }))
      if (failed.length === 0) break
      if (attempt >= MAX_ATTEMPTS) {
        this.#logger.warn(`Partition reader ${this.#clientId}: fetch kept failing, retrying at the next poll`, { partitions: failed.map(p => tpKey(p.topic, p.partition)) })
        break
      }
      await this.#cluster.refreshMetadata()
      pending = failed.filter(p => this.#positions.get(tpKey(p.topic, p.partition)) === p)
    }
    return batches
  }

  /** Partitions by leader node; `leaderless` have no known leader (election, unknown partition). */
  #groupByLeader (positions: readonly Position[]): { byLeader: Map<string, Position[]>, leaderless: Position[] } {
    const byLeader = new Map<string, Position[]>()
    const leaderless: Position[] = []
    for (const p of positions) {
      let nodeId: string | undefined
      try {
        nodeId = Object.keys(this.#cluster.findLeaderForPartitions(p.topic, [p.partition]))[0]
      } catch {
        nodeId = undefined
      }
      if (nodeId === undefined) leaderless.push(p)
      else byLeader.set(nodeId, [...(byLeader.get(nodeId) ?? []), p])
    }
    return { byLeader, leaderless }
  }

  async #fetchFromBroker (nodeId: string, positions: readonly Position[], maxWaitMs: number): Promise<FetchedBatch[]> {
    const broker = await this.#cluster.findBroker({ nodeId })
    const requested = new Map(positions.map(p => [tpKey(p.topic, p.partition), { position: p, fetchOffset: p.offset! }]))
    const byTopic = new Map<string, Array<{ partition: number, fetchOffset: string, maxBytes: number }>>()
    for (const { position, fetchOffset } of requested.values()) {
      const list = byTopic.get(position.topic) ?? []
      list.push({ partition: position.partition, fetchOffset: String(fetchOffset), maxBytes: this.#config.fetchMaxBytesPerPartition })
      byTopic.set(position.topic, list)
    }
    const { responses } = await broker.fetch({
      maxWaitTime: maxWaitMs,
      minBytes: 1,
      maxBytes: this.#config.fetchMaxBytes,
      isolationLevel: this.#readCommitted ? ISOLATION_READ_COMMITTED : ISOLATION_READ_UNCOMMITTED,
      topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions }))
    })
    const batches: FetchedBatch[] = []
    for (const { topicName, partitions } of responses) {
      for (const data of partitions) {
        const entry = requested.get(tpKey(topicName, data.partition))
        if (entry === undefined) continue
        const batch = this.#toBatch(topicName, entry.fetchOffset, data)
        // Drop the result if assign() replaced the assignment while the fetch was in flight.
        if (this.#positions.get(tpKey(topicName, data.partition)) !== entry.position || entry.position.offset !== entry.fetchOffset) continue
        entry.position.offset = batch.nextOffset
        batches.push(batch)
      }
    }
    return batches
  }

  #toBatch (topic: string, fetchOffset: number, data: FetchPartitionResponse): FetchedBatch {
    const batch = createBatch(topic, fetchOffset, data)
    const lso = Number(data.lastStableOffset ?? -1)
    return {
      topic,
      partition: data.partition,
      records: batch.messages.map(m => toFetchedRecord(topic, data.partition, m)),
      highWatermark: this.#readCommitted && lso >= 0 ? lso : Number(data.highWatermark),
      nextOffset: nextOffsetAfter(batch.rawMessages, fetchOffset)
    }
  }

  async #outOfRange (position: Position): Promise<FetchedBatch> {
    const requested = position.offset
    await this.#resetToEarliest([position])
    const latest = await this.#cluster.fetchTopicsOffset([{ topic: position.topic, fromBeginning: false, partitions: [{ partition: position.partition }] }])
    const end = Number(latest[0]?.partitions.find(p => p.partition === position.partition)?.offset ?? position.offset)
    this.#logger.warn(`Partition reader ${this.#clientId}: offset ${String(requested)} of ${position.topic}-${position.partition} is out of range, reset to the earliest offset ${String(position.offset)}`)
    return { topic: position.topic, partition: position.partition, records: [], highWatermark: end, nextOffset: position.offset! }
  }

  #requireOpen (what: string): void {
    if (this.#closed) throw new IllegalStateError(`${what}() on closed partition reader ${this.#clientId}`)
  }
}
