/**
 * FetchPort on platformatic's low-level requests, on connections of its own. `leaders()` comes
 * from PartitionLeaders (Metadata v12). `fetch()` is one Fetch v12 (topics by name, no fetch
 * session; its answer decoded by fetch-response.ts) to the node asked for, partitions in the order given; each partition comes back on
 * its own, as a batch (fetched-batches.ts: READ_COMMITTED filtering, next offset past every
 * batch) or as a PartitionError. `listOffsets()` asks each leader once (ListOffsets v9, with
 * the isolation level given).
 */
import { listOffsetsV9 } from '@platformatic/kafka'
import {
  KafkaRequestError,
  tpKey,
  type FetchedBatch,
  type FetchPort,
  type FetchRequest,
  type IsolationLevel,
  type Logger,
  type PartitionError,
  type TopicPartition,
  type TopicPartitionTimestamp,
  groupByTopic
} from '@kstreams/core'
import { BrokerConnections } from './broker-connections.js'
import { toFetchedBatch } from './fetched-batches.js'
import { fetchRecords } from './fetch-response.js'
import { PartitionLeaders } from './partition-leaders.js'
import type { PlatformaticClientConfig } from './platformatic-client-config.js'
import { fromErrorCode } from './platformatic-errors.js'

const READ_UNCOMMITTED = 0
const READ_COMMITTED = 1
const EARLIEST_TIMESTAMP = -2n
const LATEST_TIMESTAMP = -1n
/** A consumer's replica id in Fetch and ListOffsets. */
const CONSUMER_REPLICA = -1
/** Fetch session id/epoch of a full fetch request without a session (KIP-227). */
const NO_SESSION_ID = 0
const NO_SESSION_EPOCH = -1

/** Partition errors after which the cached leader of the partition is likely wrong. */
const STALE_LEADER_ERRORS: ReadonlySet<string> = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'REPLICA_NOT_AVAILABLE'
])

export const isolationLevelCode = (level: IsolationLevel): number => (level === 'READ_COMMITTED' ? READ_COMMITTED : READ_UNCOMMITTED)

export class PlatformaticFetcher implements FetchPort {
  readonly #connections: BrokerConnections
  readonly #leaders: PartitionLeaders
  readonly #clientId: string
  readonly #logger: Logger

  constructor(options: { config: PlatformaticClientConfig; clientId: string }) {
    this.#clientId = options.clientId
    this.#logger = options.config.logger
    this.#connections = new BrokerConnections({
      clientId: options.clientId,
      bootstrap: options.config.bootstrap,
      connection: options.config.connectionOptions()
    })
    this.#leaders = new PartitionLeaders({
      connections: this.#connections,
      clock: options.config.clock,
      maxAgeMs: options.config.metadataMaxAgeMs
    })
  }

  async leaders(partitions: readonly TopicPartition[], refresh: boolean): Promise<Map<string, number>> {
    if (partitions.length === 0) return new Map()
    return await this.#leaders.leaders(partitions, refresh)
  }

  async fetch(request: FetchRequest): Promise<Array<FetchedBatch | PartitionError>> {
    const what = `Fetch from node ${request.node} (client ${this.#clientId})`
    if (request.partitions.length === 0) return []
    const connection = await this.#connections.node(request.node, what)
    const offsets = new Map(request.partitions.map(p => [tpKey(p.topic, p.partition), p.offset]))
    const readCommitted = request.isolationLevel === 'READ_COMMITTED'
    const topics = groupByTopic(request.partitions).map(({ topic, items }) => ({
      topicId: topic,
      partitions: items.map(p => ({
        partition: p.partition,
        currentLeaderEpoch: -1,
        fetchOffset: BigInt(p.offset),
        lastFetchedEpoch: -1,
        partitionMaxBytes: request.maxPartitionBytes
      }))
    }))
    const response = await this.#connections.request(
      connection,
      fetchRecords,
      [
        request.maxWaitMs,
        request.minBytes ?? 1,
        request.maxBytes,
        isolationLevelCode(request.isolationLevel),
        NO_SESSION_ID,
        NO_SESSION_EPOCH,
        topics,
        [],
        ''
      ],
      what
    )
    if (response.errorCode !== 0) throw fromErrorCode(response.errorCode, what, null, { api: 'Fetch' })
    const result: Array<FetchedBatch | PartitionError> = []
    for (const { topic, partitions } of response.responses) {
      for (const data of partitions) {
        const offset = offsets.get(tpKey(topic, data.partitionIndex))
        if (offset === undefined) continue
        result.push(
          data.errorCode === 0
            ? toFetchedBatch(topic, offset, data, readCommitted)
            : this.#partitionError(topic, data.partitionIndex, offset, data.errorCode)
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
    const timestamp = spec === 'earliest' ? EARLIEST_TIMESTAMP : LATEST_TIMESTAMP
    return await this.#listOffsetsAt(
      partitions.map(tp => ({ topic: tp.topic, partition: tp.partition, timestamp })),
      isolationLevel,
      `ListOffsets ${spec} (client ${this.#clientId})`
    )
  }

  /** The offset of the first record at or after each timestamp (ms); partitions without one are absent. */
  async offsetsForTimes(partitions: readonly TopicPartitionTimestamp[], isolationLevel: IsolationLevel): Promise<Map<string, number>> {
    const offsets = await this.#listOffsetsAt(
      partitions.map(p => ({ topic: p.topic, partition: p.partition, timestamp: BigInt(p.timestamp) })),
      isolationLevel,
      `ListOffsets by timestamp (client ${this.#clientId})`
    )
    for (const [key, offset] of offsets) if (offset < 0) offsets.delete(key)
    return offsets
  }

  /** ListOffsets v9 at a timestamp per partition (or earliest/latest), each leader asked once; in the order asked for. */
  async #listOffsetsAt(
    partitions: ReadonlyArray<TopicPartition & { readonly timestamp: bigint }>,
    isolationLevel: IsolationLevel,
    what: string
  ): Promise<Map<string, number>> {
    const answered = new Map<string, number>()
    if (partitions.length === 0) return answered
    const byNode = await leadersOrFail(this.#leaders, partitions, what)
    const timestamps = new Map(partitions.map(p => [tpKey(p.topic, p.partition), p.timestamp]))
    await Promise.all(
      [...byNode].map(async ([node, list]) => {
        const topics = groupByTopic(list).map(({ topic, items }) => ({
          name: topic,
          partitions: items.map(tp => ({
            partitionIndex: tp.partition,
            currentLeaderEpoch: -1,
            timestamp: timestamps.get(tpKey(tp.topic, tp.partition))!
          }))
        }))
        const response = await forgettingLeadersOnFailure(
          this.#leaders,
          topics,
          async () =>
            await this.#connections.request(
              await this.#connections.node(node, what),
              listOffsetsV9.api,
              [CONSUMER_REPLICA, isolationLevelCode(isolationLevel), topics],
              what
            )
        )
        for (const { name, partitions: list } of response.topics) {
          for (const p of list) {
            if (p.errorCode !== 0) {
              this.#leaders.invalidate(name)
              throw fromErrorCode(p.errorCode, `${what} for ${tpKey(name, p.partitionIndex)}`, null, { api: 'ListOffsets', topic: name })
            }
            answered.set(tpKey(name, p.partitionIndex), Number(p.offset))
          }
        }
      })
    )
    // In the order asked for, whatever order the leaders answered in.
    const result = new Map<string, number>()
    for (const { topic, partition } of partitions) {
      const key = tpKey(topic, partition)
      const offset = answered.get(key)
      if (offset !== undefined) result.set(key, offset)
    }
    return result
  }

  async close(): Promise<void> {
    this.#leaders.clear()
    await this.#connections.close()
  }

  #partitionError(topic: string, partition: number, offset: number, errorCode: number): PartitionError {
    const error = fromErrorCode(errorCode, `Fetch of ${tpKey(topic, partition)} at offset ${offset} (client ${this.#clientId})`, null, {
      api: 'Fetch',
      topic
    })
    if (STALE_LEADER_ERRORS.has(error.errorName)) {
      this.#logger.debug(`${error.message}; forgetting the leaders of ${topic}`)
      this.#leaders.invalidate(topic)
    }
    return { topic, partition, error }
  }
}

/**
 * A request to a partition leader; when it fails as a whole (the broker went away, a timeout), the
 * cached leaders of its topics are forgotten, so the retry asks the metadata where they are now.
 */
export async function forgettingLeadersOnFailure<T>(
  leaders: PartitionLeaders,
  topics: ReadonlyArray<{ readonly name: string }>,
  request: () => Promise<T>
): Promise<T> {
  try {
    return await request()
  } catch (error) {
    for (const { name } of topics) leaders.invalidate(name)
    throw error
  }
}

/** The partitions grouped by leader node; rejects naming the first partition that has none after a metadata refresh. */
export async function leadersOrFail(
  leaders: PartitionLeaders,
  partitions: readonly TopicPartition[],
  what: string
): Promise<Map<number, TopicPartition[]>> {
  let found = await leaders.leaders(partitions, false)
  const missing = partitions.filter(tp => !found.has(tpKey(tp.topic, tp.partition)))
  if (missing.length > 0) found = new Map([...found, ...(await leaders.leaders(missing, true))])
  const byNode = new Map<number, TopicPartition[]>()
  for (const tp of partitions) {
    const node = found.get(tpKey(tp.topic, tp.partition))
    if (node === undefined)
      throw new KafkaRequestError(leaders.missingReason(tp), `${what} failed: no leader for ${tpKey(tp.topic, tp.partition)}`)
    let list = byNode.get(node)
    if (list === undefined) byNode.set(node, (list = []))
    list.push(tp)
  }
  return byNode
}
