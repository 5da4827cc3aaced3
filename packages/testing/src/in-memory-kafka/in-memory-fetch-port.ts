/**
 * FetchPort on the in-memory broker: leaders from a client-side metadata cache (stale until
 * refreshed, as a real client's), Fetch with Kafka's partition errors, byte limits and long poll
 * (answered as soon as there is data or an error, else after maxWaitMs), ListOffsets.
 * @internal
 */
import { tpKey } from '@kstreams/core'
import type {
  FetchedBatch,
  FetchPort,
  FetchRequest,
  IsolationLevel,
  PartitionError,
  TopicPartition,
  TopicPartitionOffset
} from '@kstreams/core'
import type { ClientConnection } from './client-connection.js'
import type { InMemoryBroker } from './in-memory-broker.js'
import { kafkaError } from './request-errors.js'

interface Evaluation {
  readonly results: Array<FetchedBatch | PartitionError>
  /** Records, skipped markers or an error: the broker answers now. */
  readonly ready: boolean
}

export class InMemoryFetchPort implements FetchPort {
  readonly #broker: InMemoryBroker
  readonly #connection: ClientConnection
  readonly #leaders = new Map<string, number>()

  constructor(broker: InMemoryBroker, options: { clientId: string }) {
    this.#broker = broker
    this.#connection = broker.connect(options.clientId, 'fetch port')
  }

  async leaders(partitions: readonly TopicPartition[], refresh: boolean): Promise<Map<string, number>> {
    return await this.#call('leaders', partitions, () => {
      const result = new Map<string, number>()
      for (const tp of partitions) {
        const key = tpKey(tp.topic, tp.partition)
        if (refresh || !this.#leaders.has(key)) {
          const leader = this.#broker.topics.leader(tp)
          if (leader === undefined) this.#leaders.delete(key)
          else this.#leaders.set(key, leader)
        }
        const leader = this.#leaders.get(key)
        if (leader !== undefined) result.set(key, leader)
      }
      return result
    })
  }

  async fetch(request: FetchRequest): Promise<Array<FetchedBatch | PartitionError>> {
    const scope = { api: 'fetch' as const, clientId: this.#connection.clientId, partitions: request.partitions }
    return await this.#broker.call(this.#connection, scope, async () => {
      const injected = new Map<string, PartitionError>()
      for (const tp of request.partitions) {
        const failure = this.#broker.faults.takePartitionFailure(scope, tp)
        if (failure !== undefined) {
          injected.set(tpKey(tp.topic, tp.partition), {
            topic: tp.topic,
            partition: tp.partition,
            error: kafkaError(failure.error, `injected fault on fetch of ${tpKey(tp.topic, tp.partition)}`)
          })
        }
      }
      const deadline = this.#broker.timers.now() + request.maxWaitMs
      for (;;) {
        const evaluation = this.#evaluate(request, injected)
        const remaining = deadline - this.#broker.timers.now()
        if (evaluation.ready || remaining <= 0 || this.#broker.closed) return evaluation.results
        await this.#broker.signal.wait(remaining)
      }
    })
  }

  async listOffsets(
    partitions: readonly TopicPartition[],
    spec: 'earliest' | 'latest',
    isolationLevel: IsolationLevel
  ): Promise<Map<string, number>> {
    return await this.#call('listOffsets', partitions, () => {
      const result = new Map<string, number>()
      for (const tp of partitions) {
        const log = this.#broker.topics.requireLog(tp)
        result.set(tpKey(tp.topic, tp.partition), spec === 'earliest' ? log.logStartOffset : log.endOffset(isolationLevel))
      }
      return result
    })
  }

  async close(): Promise<void> {
    this.#broker.release(this.#connection)
  }

  #evaluate(request: FetchRequest, injected: ReadonlyMap<string, PartitionError>): Evaluation {
    const results: Array<FetchedBatch | PartitionError> = []
    let ready = injected.size > 0
    let bytes = 0
    let records = 0
    for (const tp of request.partitions) {
      const injectedError = injected.get(tpKey(tp.topic, tp.partition))
      if (injectedError !== undefined) {
        results.push(injectedError)
        continue
      }
      const error = this.#partitionError(request, tp)
      if (error !== undefined) {
        results.push(error)
        ready = true
        continue
      }
      const log = this.#broker.topics.log(tp)!
      const limit = Math.max(0, Math.min(request.maxPartitionBytes, request.maxBytes - bytes))
      const read = log.read(tp.offset, request.isolationLevel, limit, records === 0)
      bytes += read.bytes
      records += read.records.length
      if (read.nextOffset > tp.offset) ready = true
      results.push({
        topic: tp.topic,
        partition: tp.partition,
        records: read.records.map(r => ({
          topic: tp.topic,
          partition: tp.partition,
          offset: r.offset,
          timestamp: r.timestamp,
          key: r.key === null ? null : Buffer.from(r.key),
          value: r.value === null ? null : Buffer.from(r.value),
          headers: r.headers.copy()
        })),
        highWatermark: log.endOffset(request.isolationLevel),
        nextOffset: read.nextOffset,
        logStartOffset: log.logStartOffset
      })
    }
    return { results, ready }
  }

  #partitionError(request: FetchRequest, tp: TopicPartitionOffset): PartitionError | undefined {
    const key = tpKey(tp.topic, tp.partition)
    const log = this.#broker.topics.log(tp)
    if (log === undefined)
      return { topic: tp.topic, partition: tp.partition, error: kafkaError('UNKNOWN_TOPIC_OR_PARTITION', `unknown partition ${key}`) }
    const leader = this.#broker.topics.leader(tp)
    if (leader !== request.node) {
      return {
        topic: tp.topic,
        partition: tp.partition,
        error: kafkaError('NOT_LEADER_OR_FOLLOWER', `node ${request.node} does not lead ${key} (node ${leader ?? 'none'} does)`)
      }
    }
    if (tp.offset < log.logStartOffset || tp.offset > log.highWatermark) {
      return {
        topic: tp.topic,
        partition: tp.partition,
        error: kafkaError('OFFSET_OUT_OF_RANGE', `offset ${tp.offset} of ${key} is outside [${log.logStartOffset}, ${log.highWatermark}]`)
      }
    }
    return undefined
  }

  async #call<T>(api: 'leaders' | 'listOffsets', partitions: readonly TopicPartition[], handler: () => T): Promise<T> {
    return await this.#broker.call(this.#connection, { api, clientId: this.#connection.clientId, partitions }, handler)
  }
}
