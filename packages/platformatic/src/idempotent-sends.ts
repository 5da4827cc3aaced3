/**
 * The idempotent producer's sends, on Produce requests of our own: the records of each partition
 * become one record batch (record-batch.ts, written in one pass) with the partition's next
 * sequence number, and the batches go to each partition's leader in one request per broker, all
 * brokers at once. platformatic's producer builds every record through several small buffers
 * and copies them more than once; this is the send path of every output and changelog record.
 *
 * The producer id comes from InitProducerId (no transactional id, id -1 / epoch -1, as Java's
 * idempotent producer asks). A send that fails in any way forgets it and the sequence numbers,
 * so the next send (the runtime sends again after a retriable error) starts a new producer
 * session: records of a partition that did get written before the failure may then be written
 * twice (at-least-once, as before), but a send never fails on sequence numbers that a lost
 * answer left unknown (OUT_OF_ORDER_SEQUENCE_NUMBER and UNKNOWN_PRODUCER_ID fail retriably).
 * One send at a time (the producer's executor serialises them).
 */
import { createAPI, initProducerIdV5, produceV11, Writer } from '@platformatic/kafka'
import { KafkaRequestError, tpKey, type ProducedRecord, type SendResult, type StreamsError } from '@kstreams/core'
import type { BrokerConnections } from './broker-connections.js'
import type { PartitionLeaders } from './partition-leaders.js'
import { fromErrorCode } from './platformatic-errors.js'
import { compressRecordBatch, encodeRecordBatch } from './record-batch.js'
import type { PlatformaticCompression } from './platformatic-client-config.js'

const ACKS_ALL = -1
/**
 * The broker does not know this producer's sequence any more (its state expired, or a leader
 * change lost it): the next send starts a new session, so the send fails retriably and is sent
 * again, as Java's producer resets its sequence numbers (KIP-360).
 */
const SEQUENCE_LOST: ReadonlySet<string> = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID'])
/** Java's producer wraps sequence numbers at Integer.MAX_VALUE. */
const SEQUENCE_WRAP = 2 ** 31

interface PartitionBatch {
  readonly partition: number
  readonly batch: Buffer
}
interface TopicBatches {
  readonly topic: string
  readonly partitions: PartitionBatch[]
}
type ProduceResponse = produceV11.ProduceResponse
type ProduceArgs = [transactionalId: string | null, acks: number, timeoutMs: number, topics: TopicBatches[]]

/** Produce v11 with batches already encoded. */
const produce = createAPI<ProduceArgs, ProduceResponse>(
  produceV11.api.key,
  produceV11.api.version,
  (transactionalId: string | null, acks: number, timeoutMs: number, topics: TopicBatches[]) =>
    Writer.create()
      .appendString(transactionalId)
      .appendInt16(acks)
      .appendInt32(timeoutMs)
      .appendArray(topics, (w, { topic, partitions }) => {
        w.appendString(topic).appendArray(partitions, (w, { partition, batch }) => {
          w.appendInt32(partition)
            .appendUnsignedVarInt(batch.length + 1)
            .append(batch)
        })
      })
      .appendTaggedFields(),
  produceV11.parseResponse
)

/** One partition's part of a send. */
interface PartitionSend {
  readonly topic: string
  readonly partition: number
  readonly key: string
  readonly records: ProducedRecord[]
}

export class IdempotentSends {
  readonly #connections: BrokerConnections
  readonly #leaders: PartitionLeaders
  readonly #clientId: string
  readonly #timeoutMs: number
  readonly #compression: PlatformaticCompression
  #session: { readonly producerId: bigint; readonly producerEpoch: number } | undefined
  readonly #sequences = new Map<string, number>()

  constructor(options: {
    connections: BrokerConnections
    leaders: PartitionLeaders
    clientId: string
    timeoutMs: number
    /** The record batches' compression (`compression.type`); default none. */
    compression?: PlatformaticCompression
  }) {
    this.#compression = options.compression ?? 'none'
    this.#connections = options.connections
    this.#leaders = options.leaders
    this.#clientId = options.clientId
    this.#timeoutMs = options.timeoutMs
  }

  /** Sends `records` (partitions chosen); the offset of the last record per partition. */
  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    const result: SendResult = new Map()
    if (records.length === 0) return result
    const what = `Send by producer ${this.#clientId}`
    const partitions = groupByPartition(records)
    const byLeader = await this.#leadersOf(partitions, what)
    try {
      const session = await this.#producerSession(what)
      await Promise.all(
        [...byLeader].map(async ([node, sends]) => {
          await this.#sendTo(node, sends, session, result, what)
        })
      )
    } catch (error) {
      // The sequence numbers are not known any more: the next send starts a new session.
      this.#session = undefined
      this.#sequences.clear()
      throw error
    }
    return result
  }

  /** The partitions grouped by leader; refuses a partition without one before anything is sent. */
  async #leadersOf(partitions: readonly PartitionSend[], what: string): Promise<Map<number, PartitionSend[]>> {
    let leaders = await this.#leaders.leaders(partitions, false)
    if (partitions.some(p => !leaders.has(p.key))) leaders = await this.#leaders.leaders(partitions, true)
    const byLeader = new Map<number, PartitionSend[]>()
    for (const p of partitions) {
      const leader = leaders.get(p.key)
      if (leader === undefined) {
        const reason = this.#leaders.missingReason(p)
        throw new KafkaRequestError(
          reason,
          reason === 'UNKNOWN_TOPIC_OR_PARTITION' ? `${what} failed: ${p.key} does not exist` : `${what} failed: ${p.key} has no leader`
        )
      }
      const sends = byLeader.get(leader)
      if (sends === undefined) byLeader.set(leader, [p])
      else sends.push(p)
    }
    return byLeader
  }

  async #producerSession(what: string): Promise<{ producerId: bigint; producerEpoch: number }> {
    if (this.#session !== undefined) return this.#session
    const request = `${what} (InitProducerId)`
    const connection = await this.#connections.any(request)
    const response = await this.#connections.request(connection, initProducerIdV5.api, [null, this.#timeoutMs, -1n, -1], request)
    if (response.errorCode !== 0) throw fromErrorCode(response.errorCode, request, null, { api: 'InitProducerId' })
    this.#session = { producerId: response.producerId, producerEpoch: response.producerEpoch }
    return this.#session
  }

  async #sendTo(
    node: number,
    sends: readonly PartitionSend[],
    session: { producerId: bigint; producerEpoch: number },
    result: SendResult,
    what: string
  ): Promise<void> {
    const topics = new Map<string, PartitionBatch[]>()
    const sent = new Map<string, { send: PartitionSend; baseSequence: number }>()
    for (const send of sends) {
      const baseSequence = this.#sequences.get(send.key) ?? 0
      const batch = compressRecordBatch(
        encodeRecordBatch(send.records, { ...session, baseSequence, transactional: false }),
        this.#compression
      )
      const batches = topics.get(send.topic)
      if (batches === undefined) topics.set(send.topic, [{ partition: send.partition, batch }])
      else batches.push({ partition: send.partition, batch })
      sent.set(send.key, { send, baseSequence })
    }
    let response: ProduceResponse
    try {
      const connection = await this.#connections.node(node, what)
      const args: ProduceArgs = [null, ACKS_ALL, this.#timeoutMs, [...topics].map(([topic, partitions]) => ({ topic, partitions }))]
      response = await this.#connections.request(connection, produce, args, `${what} (Produce to node ${node})`)
    } catch (error) {
      // A lost connection or a broker that went away: its partitions may have moved.
      for (const topic of topics.keys()) this.#leaders.invalidate(topic)
      throw error
    }
    let failure: StreamsError | undefined
    for (const { name, partitionResponses } of response.responses) {
      for (const { index, errorCode, baseOffset, errorMessage } of partitionResponses) {
        const key = tpKey(name, index)
        const part = sent.get(key)
        if (part === undefined) continue
        if (errorCode !== 0) {
          const error = fromErrorCode(errorCode, `${what} to ${key}`, errorMessage, { api: 'Produce', topic: name })
          if (error.retriable) this.#leaders.invalidate(name)
          failure ??= SEQUENCE_LOST.has(error.errorName)
            ? new KafkaRequestError(error.errorName, `${error.message}; the producer starts over with a new producer id`, {
                cause: error,
                retriable: true
              })
            : error
          continue
        }
        const count = part.send.records.length
        result.set(key, Number(baseOffset) + count - 1)
        this.#sequences.set(key, (part.baseSequence + count) % SEQUENCE_WRAP)
        sent.delete(key)
      }
    }
    if (failure !== undefined) throw failure
    if (sent.size > 0)
      throw new KafkaRequestError('UNKNOWN_TOPIC_OR_PARTITION', `${what} failed: no acknowledgement for ${[...sent.keys()].join(', ')}`)
  }
}

/** The records of each partition, in order; partitions in the order first seen. */
function groupByPartition(records: readonly ProducedRecord[]): PartitionSend[] {
  const partitions: PartitionSend[] = []
  // By topic, then partition number: no topic-partition string per record.
  const byTopic = new Map<string, PartitionSend[]>()
  for (const record of records) {
    let ofTopic = byTopic.get(record.topic)
    if (ofTopic === undefined) {
      ofTopic = []
      byTopic.set(record.topic, ofTopic)
    }
    const p = ofTopic[record.partition]
    if (p !== undefined) {
      p.records.push(record)
      continue
    }
    const send = { topic: record.topic, partition: record.partition, key: tpKey(record.topic, record.partition), records: [record] }
    ofTopic[record.partition] = send
    partitions.push(send)
  }
  return partitions
}
