/**
 * FetchPort on a kafkajs Cluster of its own (kafkajs has no manual-assignment consumer). Each
 * fetch() is one Fetch request to the node asked for, built by kafkajs' request definition and
 * decoded by its decoder, but without kafkajs' parse step: that step throws the first partition
 * error (e.g. KafkaJSOffsetOutOfRange) and drops every other partition of the response, so here
 * each partition comes back on its own, as a batch or as a PartitionError. kafkajs' consumer
 * Batch filters the records (control records, aborted transactions under READ_COMMITTED,
 * records below the fetch offset); the next offset is the end of the last record batch in the
 * response (record-batch-ends.ts). A response kafkajs' decoder rejects (a record batch it has no
 * codec for, or cannot read) is decoded again partition by partition (fetch-partitions.ts): the
 * partition of the batch gets the records before it, then a RecordBatchDecodeError naming the
 * batch's codec, partition and offset, which fails the consumer's poll; the other partitions
 * come back as usual. Leaders come from PartitionLeaders; listOffsets asks each leader once with
 * the broker's ListOffsets.
 */
import {
  IllegalStateError,
  KafkaRequestError,
  RecordBatchDecodeError,
  tpKey,
  type FetchedBatch,
  type FetchedRecord,
  type FetchPort,
  type FetchRequest,
  type IsolationLevel,
  type Logger,
  type PartitionError,
  type RecordDecoder,
  type TopicPartition,
  groupByTopic
} from '@kstreams/core'
import { decodeEachPartition, type PartitionDecoded } from './fetch-partitions.js'
import type { KafkajsClientConfig } from './kafkajs-client-config.js'
import { fromKafkajsError, toKafkaRequestError } from './kafkajs-errors.js'
import {
  EARLIEST_TIMESTAMP,
  ISOLATION_READ_COMMITTED,
  ISOLATION_READ_UNCOMMITTED,
  LATEST_TIMESTAMP,
  type FetchPartitionResponse,
  type FetchResponse,
  type InternalBroker,
  type InternalCluster,
  type KafkajsInternals
} from './kafkajs-internals.js'
import { PartitionLeaders } from './partition-leaders.js'
import { nextOffsetAfter, recordBatchEnds } from './record-batch-ends.js'
import { toFetchedRecord } from './record-conversion.js'
import { LazyConnection } from './lazy-connection.js'

/** Partition errors after which the cached leader of the partition is likely wrong. */
const STALE_LEADER_ERRORS: ReadonlySet<string> = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'REPLICA_NOT_AVAILABLE'
])

type DecodedFetch = FetchResponse & { readonly extra: Map<string, number> }

export class KafkajsFetcher implements FetchPort {
  readonly #cluster: InternalCluster
  readonly #internals: KafkajsInternals
  readonly #config: KafkajsClientConfig
  readonly #clientId: string
  readonly #logger: Logger
  readonly #leaders: PartitionLeaders
  readonly #connection: LazyConnection
  #closed = false

  constructor(options: { cluster: InternalCluster; internals: KafkajsInternals; config: KafkajsClientConfig; clientId: string }) {
    this.#cluster = options.cluster
    this.#connection = new LazyConnection(async () => {
      await options.cluster.connect()
    })
    this.#internals = options.internals
    this.#config = options.config
    this.#clientId = options.clientId
    this.#logger = options.config.logger
    this.#leaders = new PartitionLeaders({
      cluster: options.cluster,
      internals: options.internals,
      clock: options.config.clock,
      maxAgeMs: options.config.metadataMaxAgeMs
    })
  }

  async leaders(partitions: readonly TopicPartition[], refresh: boolean): Promise<Map<string, number>> {
    this.#requireOpen('leaders')
    if (partitions.length === 0) return new Map()
    try {
      await this.#connection.ensure()
      // The broker list too: a leader on a broker kafkajs has not seen yet could not be fetched from.
      if (refresh) await this.#cluster.refreshMetadata()
      return await this.#leaders.leaders(partitions, refresh)
    } catch (error) {
      throw toKafkaRequestError(error, `Metadata (client ${this.#clientId})`, { api: 'Metadata' })
    }
  }

  async fetch(request: FetchRequest): Promise<Array<FetchedBatch | PartitionError>> {
    this.#requireOpen('fetch')
    if (request.partitions.length === 0) return []
    const offsets = new Map(request.partitions.map(p => [tpKey(p.topic, p.partition), p.offset]))
    const readCommitted = request.isolationLevel === 'READ_COMMITTED'
    const maxPartitionBytes = Math.min(request.maxPartitionBytes, this.#config.fetchMaxPartitionBytes ?? Infinity)
    let response: DecodedFetch
    try {
      await this.#connection.ensure()
      const broker = await this.#broker(request.node)
      response = await this.#internals.send<DecodedFetch>(
        broker,
        'Fetch',
        {
          isolationLevel: readCommitted ? ISOLATION_READ_COMMITTED : ISOLATION_READ_UNCOMMITTED,
          maxWaitTime: request.maxWaitMs,
          minBytes: request.minBytes ?? 1,
          maxBytes: Math.min(request.maxBytes, this.#config.fetchMaxBytes ?? Infinity),
          topics: groupByTopic(request.partitions).map(({ topic, items }) => ({
            topic,
            partitions: items.map(p => ({ partition: p.partition, fetchOffset: String(p.offset), maxBytes: maxPartitionBytes }))
          }))
        },
        {
          decodeOnly: true,
          extra: recordBatchEnds,
          recover: async (raw, apiVersion) =>
            await decodeEachPartition(raw, apiVersion, async set => await this.#internals.decodeRecordSet(set))
        }
      )
      if (response.errorCode !== undefined && response.errorCode !== 0) throw this.#internals.protocolError(response.errorCode)
    } catch (error) {
      throw toKafkaRequestError(error, `Fetch from node ${request.node} (client ${this.#clientId})`, { api: 'Fetch' })
    }
    const result: Array<FetchedBatch | PartitionError> = []
    for (const { topicName: topic, partitions } of response.responses) {
      for (const data of partitions) {
        const key = tpKey(topic, data.partition)
        const offset = offsets.get(key)
        if (offset === undefined) continue
        result.push(
          data.errorCode === 0
            ? this.#toBatch(topic, offset, data, readCommitted, response.extra.get(key))
            : this.#toPartitionError(topic, data.partition, offset, data.errorCode)
        )
      }
    }
    return result
  }

  async listOffsets(
    partitions: readonly TopicPartition[],
    spec: 'earliest' | 'latest',
    isolationLevel: IsolationLevel
  ): Promise<Map<string, number>> {
    this.#requireOpen('listOffsets')
    const result = new Map<string, number>()
    if (partitions.length === 0) return result
    const what = `ListOffsets ${spec} (client ${this.#clientId})`
    try {
      await this.#connection.ensure()
      const byNode = await this.#leadersOrFail(partitions, what)
      await Promise.all(
        [...byNode].map(async ([node, list]) => {
          const broker = await this.#broker(node)
          try {
            const { responses } = await broker.listOffsets({
              isolationLevel: isolationLevel === 'READ_COMMITTED' ? ISOLATION_READ_COMMITTED : ISOLATION_READ_UNCOMMITTED,
              topics: groupByTopic(list).map(({ topic, items }) => ({
                topic,
                partitions: items.map(tp => ({
                  partition: tp.partition,
                  timestamp: spec === 'earliest' ? EARLIEST_TIMESTAMP : LATEST_TIMESTAMP
                }))
              }))
            })
            for (const { topic, partitions: answered } of responses) {
              for (const { partition, offset } of answered) result.set(tpKey(topic, partition), Number(offset))
            }
          } catch (error) {
            for (const topic of new Set(list.map(tp => tp.topic))) this.#leaders.invalidate(topic)
            throw error
          }
        })
      )
      return result
    } catch (error) {
      throw toKafkaRequestError(error, what, { api: 'ListOffsets' })
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#leaders.clear()
    try {
      await this.#connection.settled()
      await this.#cluster.disconnect()
    } catch (error) {
      throw toKafkaRequestError(error, `Closing fetch client ${this.#clientId}`)
    }
  }

  /** The partitions grouped by leader node; rejects naming the first partition that has none after a metadata refresh. */
  async #leadersOrFail(partitions: readonly TopicPartition[], what: string): Promise<Map<number, TopicPartition[]>> {
    let leaders = await this.#leaders.leaders(partitions, false)
    const missing = partitions.filter(tp => !leaders.has(tpKey(tp.topic, tp.partition)))
    if (missing.length > 0) leaders = new Map([...leaders, ...(await this.#leaders.leaders(missing, true))])
    const byNode = new Map<number, TopicPartition[]>()
    for (const tp of partitions) {
      const node = leaders.get(tpKey(tp.topic, tp.partition))
      if (node === undefined) {
        throw new KafkaRequestError(this.#leaders.missingReason(tp.topic), `${what} failed: no leader for ${tpKey(tp.topic, tp.partition)}`)
      }
      let list = byNode.get(node)
      if (list === undefined) byNode.set(node, (list = []))
      list.push(tp)
    }
    return byNode
  }

  #toBatch(
    topic: string,
    offset: number,
    data: FetchPartitionResponse & Pick<PartitionDecoded, 'undecodable'>,
    readCommitted: boolean,
    batchesEnd: number | undefined
  ): FetchedBatch {
    const batch = this.#internals.createBatch(topic, offset, data)
    const lastStable = Number(data.lastStableOffset ?? -1)
    const highWatermark = readCommitted && lastStable >= 0 ? lastStable : Number(data.highWatermark)
    const logStartOffset = Number(data.lastStartOffset ?? -1)
    const messages = batch.messages
    const undecodable = data.undecodable
    if (undecodable !== undefined && messages.length === 0) {
      const error = new RecordBatchDecodeError({ topic, partition: data.partition, ...undecodable })
      const failing: RecordDecoder = {
        next: () => {
          throw error
        }
      }
      return { topic, partition: data.partition, records: [], undecoded: failing, highWatermark, nextOffset: offset, logStartOffset }
    }
    // kafkajs decoded its messages already; they become records as the polls take them.
    let converted = 0
    const undecoded: RecordDecoder = {
      next: max => {
        const end = Math.min(messages.length, converted + max)
        const records: FetchedRecord[] = []
        for (; converted < end; converted++) records.push(toFetchedRecord(topic, data.partition, messages[converted]!))
        return records
      }
    }
    return {
      topic,
      partition: data.partition,
      records: [],
      ...(messages.length === 0 ? {} : { undecoded }),
      highWatermark,
      // The records before a batch that cannot be decoded go out; the next fetch starts at that batch.
      nextOffset:
        undecodable === undefined ? Math.max(nextOffsetAfter(batch.rawMessages, offset), batchesEnd ?? offset) : undecodable.offset,
      logStartOffset
    }
  }

  #toPartitionError(topic: string, partition: number, offset: number, errorCode: number): PartitionError {
    const error = fromKafkajsError(
      this.#internals.protocolError(errorCode),
      `Fetch of ${tpKey(topic, partition)} at offset ${offset} (client ${this.#clientId})`,
      { api: 'Fetch', topic }
    )
    if (STALE_LEADER_ERRORS.has(error.errorName)) {
      this.#logger.debug(`${error.message}; forgetting the leaders of ${topic}`)
      this.#leaders.invalidate(topic)
    }
    return { topic, partition, error }
  }

  /** The connected broker of a node, from the cluster's broker list (reloaded when older than metadataMaxAgeMs). */
  async #broker(node: number): Promise<InternalBroker> {
    await this.#cluster.refreshMetadataIfNecessary()
    return await this.#cluster.findBroker({ nodeId: String(node) })
  }

  #requireOpen(what: string): void {
    if (this.#closed) throw new IllegalStateError(`${what} on closed fetch client ${this.#clientId}`)
  }
}
