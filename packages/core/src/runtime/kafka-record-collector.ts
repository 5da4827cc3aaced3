/**
 * Sends a stream thread's output and changelog records through its producer. Sends are buffered
 * and go out in batches, one batch in flight at a time (kafkajs #1005 cannot lose records that
 * way), when a batch fills, when the linger time passes, or at flush (commit). It chooses the
 * partition of keyed records like the Java producer (murmur2), remembers the offset Kafka gave
 * the last record of every partition (changelog offsets for checkpoints), sends a batch again
 * after a retriable error (until the retry timeout), and keeps a failed send to throw it at the
 * next send or flush.
 *
 * A send that fails is decided per record, as Kafka Streams' RecordCollectorImpl does: fatal
 * errors (see fatal-send-errors.ts) fail at once; fencing errors (a fenced producer, a lost
 * sequence) are TASK_MIGRATED, under at_least_once too (the thread closes its tasks dirty and
 * rejoins); otherwise the batch is sent again in halves
 * until the records that fail on their own are found, and the production exception handler is
 * asked about each of those, with its own error. FAIL fails; CONTINUE drops that record only
 * (counted in its task's dropped records); RETRY sends it again, for retriable errors only (on
 * any other it counts as FAIL). A record larger than max.request.size or its topic's
 * max.message.bytes is never sent: the handler hears of it the same way. Nothing else is
 * dropped, except the output of tasks the thread no longer owns (see `stillOwner`), which their
 * new owner produces again. @internal
 */
import { StreamsError } from '../errors.js'
import { partitionFor } from '../partitioner/murmur2.js'
import type { CollectedRecord, RecordCollector } from './record-collector.js'
import { tpKey, type AdminPort, type ProducedRecord, type ProducerPort, type SendResult } from './kafka/ports.js'
import { KafkaRequestError } from './kafka/kafka-request-error.js'
import { isRetriable } from './retrying.js'
import { isFatalSendError, isFencingSendError } from './fatal-send-errors.js'
import { recordSizeUpperBound } from './record-size.js'
import { markHandled } from './handled-error.js'
import { sendDeadLetterQueueRecords, type HandlerDecision } from './exception-handlers.js'

/** The production exception handler's answer for one record: a plain result, or one with the dead-letter records to send (KIP-1034). */
export type RecordErrorResponse = 'CONTINUE' | 'FAIL' | 'RETRY' | HandlerDecision<'RESUME' | 'FAIL' | 'RETRY'>

export interface KafkaRecordCollectorOptions {
  readonly producer: ProducerPort
  readonly admin: Pick<AdminPort, 'partitionCounts'> & Partial<Pick<AdminPort, 'topicConfigs'>>
  /** Records per send (a send starts without waiting for the linger time once this many are buffered). */
  readonly batchSize?: number
  /** Approximate bytes per send; default 900 KiB (under the broker's 1 MB max.message.bytes). */
  readonly maxRequestBytes?: number
  /** The producer's max.request.size: a record larger than this is never sent; default 1048576. */
  readonly maxRequestSize?: number
  readonly lingerMs?: number
  /**
   * Buffered bytes (keys, values and headers, as recordSizeUpperBound counts them) at which a send
   * starts without waiting for the linger time (the producer's `batch.size`); default: by
   * record count (batchSize) only.
   */
  readonly batchBytes?: number
  /**
   * Whether the producer compresses its record batches (`compression.type` other than none):
   * then a record larger than its topic's max.message.bytes may still fit once compressed, and
   * only the broker can tell (as with Java's producer); default false.
   */
  readonly compressed?: boolean
  /** Called when a send failed (the error is also thrown at the next send or flush). */
  readonly onSendError?: (error: StreamsError) => void
  /**
   * The production exception handler's response for a record that failed on its own (the
   * record as sent, with its partition, origin and source record); default FAIL. Its
   * dead-letter records are buffered (sent after the records before them) before it takes effect.
   */
  readonly onRecordError?: (
    record: ProducedRecord & Pick<CollectedRecord, 'origin' | 'source' | 'processorNodeId'> & { readonly changelog: boolean },
    error: Error
  ) => RecordErrorResponse
  /** How long a send is tried again after retriable errors (task.timeout.ms); also each round a RETRY starts. */
  readonly retryTimeoutMs?: number
  /**
   * Asked before each send: whether the thread still owns the tasks whose output it is (the
   * group member may have been evicted while sends failed). When not, what is buffered is
   * dropped: the tasks' new owner produces it again from their last commit, and a late write
   * of the old owner would put an older value last in a changelog. Default: always.
   */
  readonly stillOwner?: () => Promise<boolean>
  /**
   * Under exactly_once_v2 the producer sends inside a transaction: a send that fails is not sent
   * again, split or handed to the production exception handler (the transaction cannot commit
   * any more); the error (TASK_MIGRATED or TASK_CORRUPTED from the StreamsProducer) is kept and
   * thrown at the next send or flush, and the thread aborts the transaction. Records refused
   * before sending (too large) still go to the handler.
   */
  readonly transactional?: boolean
}

/** A record on its way out, its partition chosen (the ports read only the ProducedRecord fields). */
type Outgoing = CollectedRecord & { readonly partition: number }

/** The thread stopped owning the output while sending (see `stillOwner`): nothing more is sent. */
const NOT_OWNER = Symbol('not owner')

export class KafkaRecordCollector implements RecordCollector {
  readonly #options: KafkaRecordCollectorOptions
  readonly #partitionCounts = new Map<string, number>()
  /** Each topic's max.message.bytes; null when not known (no lookup, or it failed for good). */
  readonly #maxMessageBytes = new Map<string, number | null>()
  readonly #acked = new Map<string, number>()
  readonly #roundRobin = new Map<string, number>()
  #buffer: CollectedRecord[] = []
  /** The bytes buffered, counted only when batchBytes is set. */
  #bufferedBytes = 0
  #inflight: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined
  #error: StreamsError | undefined
  #sentRecords = 0
  readonly #batchSize: number
  readonly #lingerMs: number
  readonly #maxRequestBytes: number
  readonly #maxRequestSize: number
  readonly #retryTimeoutMs: number

  constructor(options: KafkaRecordCollectorOptions) {
    this.#options = options
    this.#batchSize = options.batchSize ?? 2000
    this.#lingerMs = options.lingerMs ?? 100
    this.#maxRequestBytes = options.maxRequestBytes ?? 900 * 1024
    this.#maxRequestSize = options.maxRequestSize ?? 1024 * 1024
    this.#retryTimeoutMs = options.retryTimeoutMs ?? 300000
  }

  /** Partition counts learned elsewhere (e.g. from the assignment), so sends need no lookup. */
  registerPartitionCount(topic: string, count: number): void {
    this.#partitionCounts.set(topic, count)
  }

  /**
   * Looks up the partition counts of `topics` not known yet (the fixed output topics of sinks with
   * a StreamPartitioner, so their records are partitioned on the synchronous per-record path). A
   * topic that does not exist stays unknown; a topic whose count is not known when a record is sent
   * to it is looked up before that record is sent (see `partitionsFor`).
   */
  async lookUpPartitionCounts(topics: readonly string[]): Promise<void> {
    const unknown = [...new Set(topics)].filter(t => !this.#partitionCounts.has(t))
    if (unknown.length === 0) return
    const counts = await this.#options.admin.partitionCounts(unknown)
    for (const [topic, count] of counts) this.#partitionCounts.set(topic, count)
  }

  /**
   * The partition count of `topic` when known; undefined otherwise: the sink then sends its record
   * with `choosePartitions`, and the send looks the count up (the admin port's partitionCounts, as
   * Kafka's producer fetches the metadata of a topic it has not seen) before the partitioner chooses.
   */
  partitionsFor(topic: string): number | undefined {
    return this.#partitionCounts.get(topic)
  }

  send(record: CollectedRecord): void {
    this.#throwIfFailed()
    this.#buffer.push(record)
    if (this.#options.batchBytes !== undefined) this.#bufferedBytes += recordSizeUpperBound(record)
    if (this.#buffer.length >= this.#batchSize || this.#bufferedBytes >= (this.#options.batchBytes ?? Number.POSITIVE_INFINITY)) {
      this.#startSend()
    } else if (this.#timer === undefined && this.#inflight === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined
        this.#startSend()
      }, this.#lingerMs)
    }
  }

  /** Sends everything buffered and waits for the acknowledgements; throws a failed send. */
  async flush(): Promise<void> {
    while (this.#buffer.length > 0 || this.#inflight !== undefined) {
      // A failed send stops sending: without this check the loop would spin forever on the
      // records left in the buffer, starving the event loop (no heartbeats, no timers).
      this.#throwIfFailed()
      if (this.#inflight === undefined) this.#startSend()
      await this.#inflight
    }
    this.#throwIfFailed()
  }

  /** Records buffered and not yet handed to the producer. */
  get buffered(): number {
    return this.#buffer.length
  }

  /** Waits until the send in flight (if any) completes: backpressure for the processing loop. */
  async drain(): Promise<void> {
    this.#throwIfFailed()
    if (this.#inflight === undefined) this.#startSend()
    await this.#inflight
    this.#throwIfFailed()
  }

  /** The offset of the last acknowledged record of a partition (changelog offsets for checkpoints). */
  ackedOffset(topic: string, partition: number): number | undefined {
    return this.#acked.get(tpKey(topic, partition))
  }

  get sentRecords(): number {
    return this.#sentRecords
  }

  /** Drops what is buffered (a dirty close: the records will be reprocessed). */
  discard(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    this.#buffer = []
    this.#bufferedBytes = 0
  }

  /**
   * After an aborted transaction (exactly_once_v2) or tasks closed as lost (their new owner
   * produces their output again): waits for the send in flight, then forgets what is buffered,
   * the failed send and the acknowledged offsets (of records aborted, or of tasks closed).
   */
  async reset(): Promise<void> {
    this.discard()
    await this.#inflight
    this.discard()
    this.#error = undefined
    this.#acked.clear()
  }

  #throwIfFailed(): void {
    if (this.#error !== undefined) throw this.#error
  }

  #startSend(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    if (this.#inflight !== undefined || this.#buffer.length === 0 || this.#error !== undefined) return
    const { batch, sizes } = this.#takeBatch()
    this.#inflight = this.#sendBatch(batch, sizes).then(() => {
      this.#inflight = undefined
      // What piled up while this batch was in flight goes out now (linger applies to an idle collector).
      if (this.#buffer.length > 0) this.#startSend()
    })
  }

  /**
   * The next batch to send: at most batchSize records and about maxRequestBytes, headers counted
   * (so no partition's record batch passes the broker's 1 MB default `max.message.bytes`, and
   * one send never blocks the event loop for long).
   */
  #takeBatch(): { batch: CollectedRecord[]; sizes: number[] } {
    const sizes: number[] = []
    let bytes = 0
    while (sizes.length < this.#buffer.length && sizes.length < this.#batchSize) {
      const size = recordSizeUpperBound(this.#buffer[sizes.length]!)
      if (sizes.length > 0 && bytes + size > this.#maxRequestBytes) break
      bytes += size
      sizes.push(size)
    }
    if (this.#options.batchBytes !== undefined) this.#bufferedBytes = Math.max(0, this.#bufferedBytes - bytes)
    return { batch: this.#buffer.splice(0, sizes.length), sizes }
  }

  /** Sends `batch`; `sizes` are its records' sizes on the wire (recordSizeUpperBound). */
  async #sendBatch(batch: CollectedRecord[], sizes: readonly number[]): Promise<void> {
    try {
      if (!(await this.#owned())) return
      await this.#lookUpTopics(batch)
      const deadline = Date.now() + this.#retryTimeoutMs
      let outgoing: Outgoing[] = []
      for (let i = 0; i < batch.length; i++) {
        for (const record of this.#partitioned(batch[i]!)) {
          const tooLarge = this.#sizeError(record, sizes[i]!)
          if (tooLarge === undefined) {
            outgoing.push(record)
            continue
          }
          // Never sent: the records before it go out first, then the handler decides about it.
          if (outgoing.length > 0) await this.#deliver(outgoing, deadline)
          outgoing = []
          this.#decide([record], tooLarge)
        }
      }
      if (outgoing.length > 0) await this.#deliver(outgoing, deadline)
    } catch (err) {
      if (err === NOT_OWNER) return
      const first = batch[0]!
      const error =
        err instanceof StreamsError && err.code !== 'KAFKA'
          ? err
          : new StreamsError(
              'SEND_FAILED',
              `Error sending ${batch.length} record(s) (first to topic ${first.topic}): ${err instanceof Error ? err.message : String(err)}`,
              { cause: err }
            )
      // Thrown at every later send too: the processing exception handler must not take it for the record's fault.
      this.#error ??= markHandled(error)
      this.#options.onSendError?.(error)
    }
  }

  /** Partition counts of topics whose records need a partition chosen, and max.message.bytes of topics not seen yet. */
  async #lookUpTopics(batch: readonly CollectedRecord[]): Promise<void> {
    const unknown = [...new Set(batch.filter(r => r.partition === undefined && !this.#partitionCounts.has(r.topic)).map(r => r.topic))]
    if (unknown.length > 0) {
      const counts = await this.#options.admin.partitionCounts(unknown)
      for (const [topic, count] of counts) this.#partitionCounts.set(topic, count)
      const missing = unknown.filter(t => !counts.has(t))
      if (missing.length > 0) throw new StreamsError('UNKNOWN_TOPIC', `Output topic(s) ${missing.join(', ')} do not exist`)
    }
    const lookup = this.#options.admin.topicConfigs
    const unseen = [...new Set(batch.map(r => r.topic))].filter(t => !this.#maxMessageBytes.has(t))
    if (unseen.length === 0) return
    if (lookup === undefined) {
      for (const topic of unseen) this.#maxMessageBytes.set(topic, null)
      return
    }
    try {
      const configs = await lookup.call(this.#options.admin, unseen)
      for (const topic of unseen) {
        const limit = Number(configs.get(topic)?.['max.message.bytes'])
        this.#maxMessageBytes.set(topic, Number.isSafeInteger(limit) && limit > 0 ? limit : null)
      }
    } catch (err) {
      // Not known then; the broker still rejects a record that is too large. A retriable failure is looked up again next batch.
      if (!isRetriable(err)) for (const topic of unseen) this.#maxMessageBytes.set(topic, null)
    }
  }

  /** MESSAGE_TOO_LARGE when the record can never be sent (the Java producer's and the broker's checks), naming topic, partition and size. */
  #sizeError(record: ProducedRecord, size: number): KafkaRequestError | undefined {
    const where = (): string => `${record.topic}-${record.partition}`
    if (size > this.#maxRequestSize) {
      return new KafkaRequestError(
        'MESSAGE_TOO_LARGE',
        `The record to ${where()} is ${size} bytes when serialized (key, value and headers), larger than max.request.size (${this.#maxRequestSize} bytes); it was not sent`
      )
    }
    const topicLimit = this.#options.compressed === true ? undefined : this.#maxMessageBytes.get(record.topic)
    if (topicLimit !== undefined && topicLimit !== null && size > topicLimit) {
      return new KafkaRequestError(
        'MESSAGE_TOO_LARGE',
        `The record to ${where()} is ${size} bytes when serialized (key, value and headers), larger than the topic's max.message.bytes (${topicLimit} bytes); it was not sent`
      )
    }
    return undefined
  }

  /**
   * Sends records in order. A fatal error fails at once, a fencing one is TASK_MIGRATED. Another
   * error that is not retriable, for several records, sends them again in halves (the records
   * that fail on their own are found; the others go out); for one record, or a retriable error
   * that outlasted the retry timeout, the handler decides per record.
   */
  async #deliver(records: readonly Outgoing[], deadline: number): Promise<void> {
    try {
      const result = await this.#sendRetrying(records, deadline)
      for (const [key, offset] of result) this.#acked.set(key, offset)
      this.#sentRecords += records.length
      return
    } catch (err) {
      if (err === NOT_OWNER) throw err
      if (this.#options.transactional === true) throw err
      if (isFencingSendError(err)) {
        throw new StreamsError(
          'TASK_MIGRATED',
          `Error sending ${describeRecords(records)}: ${message(err)}; the producer was fenced or lost its sequence, so the tasks may have migrated: no more records are sent, the production exception handler is not asked`,
          { cause: err }
        )
      }
      if (isFatalSendError(err)) {
        throw new StreamsError(
          'SEND_FAILED',
          `Fatal error sending ${describeRecords(records)}: ${message(err)}; the production exception handler is not asked, no more records are sent`,
          { cause: err }
        )
      }
      if (records.length > 1 && !isRetriable(err)) {
        const half = Math.ceil(records.length / 2)
        await this.#deliver(records.slice(0, half), deadline)
        await this.#deliver(records.slice(half), deadline)
        return
      }
      const retry = this.#decide(records, err)
      if (retry.length > 0) await this.#deliver(retry, Date.now() + this.#retryTimeoutMs)
    }
  }

  /**
   * The handler's answer for each record that failed with `err`: throws at the first FAIL (and
   * at RETRY for an error that is not retriable), counts and drops those it lets go; returns
   * those to send again.
   */
  #decide(records: readonly Outgoing[], err: unknown): Outgoing[] {
    const error = err instanceof Error ? err : new Error(String(err))
    const handler = this.#options.onRecordError
    const retry: Outgoing[] = []
    for (const o of records) {
      if (o.deadLetter === true) {
        // KIP-1034: a dead-letter record that cannot be sent goes to the uncaught exception handler.
        throw new StreamsError(
          'SEND_FAILED',
          `Error sending a dead letter queue record to ${o.topic}-${o.partition}: ${message(err)} (the production exception handler is not asked about dead letter queue records)`,
          { cause: err }
        )
      }
      const answer = handler === undefined ? 'FAIL' : handler({ ...o, changelog: o.changelog === true }, error)
      const decision = typeof answer === 'string' ? undefined : answer
      const response = decision?.result ?? (answer === 'CONTINUE' ? 'RESUME' : answer)
      if (decision !== undefined && decision.deadLetterQueueRecords.length > 0) {
        const failed = o.source ?? { topic: undefined, partition: -1, offset: -1, timestamp: o.timestamp, headers: o.headers }
        // Buffered behind what is being sent (Kafka sends them from the send callback).
        sendDeadLetterQueueRecords(this, decision.deadLetterQueueRecords, failed, o.processorNodeId ?? '', o.origin)
      }
      if (response === 'RESUME') {
        o.origin?.recordDroppedRecord()
        continue
      }
      if (response === 'RETRY' && isRetriable(err)) {
        retry.push(o)
        continue
      }
      const why =
        response === 'RETRY'
          ? 'the handler answered RETRY, which counts as FAIL for an error that is not retriable'
          : 'the production exception handler answered FAIL'
      throw new StreamsError('SEND_FAILED', `Error sending a record to ${o.topic}-${o.partition}: ${message(err)} (${why})`, {
        cause: err
      })
    }
    return retry
  }

  /** One send, sent again after retriable errors until `deadline`; NOT_OWNER once the output is not ours. */
  async #sendRetrying(records: readonly ProducedRecord[], deadline: number): Promise<SendResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#options.producer.send(records)
      } catch (err) {
        // A lost connection or a moved leader: sent again, as Java's producer retries until
        // delivery.timeout.ms (the ports make plain requests, so this is the runtime's job).
        if (!isRetriable(err) || Date.now() >= deadline) throw err
        await new Promise(resolve => setTimeout(resolve, Math.min(1000, 50 * attempt)))
        if (!(await this.#owned())) throw NOT_OWNER
      }
    }
  }

  /** Whether the output may still be sent; when not, the buffer is dropped (see `stillOwner`). */
  async #owned(): Promise<boolean> {
    if (this.#options.stillOwner === undefined || (await this.#options.stillOwner())) return true
    this.#buffer = []
    this.#bufferedBytes = 0
    return false
  }

  /**
   * The record with its partition: as sent when the sink chose it; else the partitions its
   * StreamPartitioner chooses now that the count is known (a copy each, none when it dropped the
   * record) or the default partitioning.
   */
  #partitioned(r: CollectedRecord): Outgoing[] {
    if (r.partition !== undefined) return [r as Outgoing]
    const chosen = r.choosePartitions?.(this.#partitionCounts.get(r.topic)!)
    const partitions = chosen ?? [this.#choosePartition(r.topic, r.key)]
    return partitions.map(partition => ({
      topic: r.topic,
      partition,
      key: r.key,
      value: r.value,
      headers: r.headers,
      timestamp: r.timestamp,
      origin: r.origin,
      changelog: r.changelog,
      source: r.source,
      processorNodeId: r.processorNodeId,
      deadLetter: r.deadLetter
    }))
  }

  #choosePartition(topic: string, key: Buffer | null): number {
    const count = this.#partitionCounts.get(topic)!
    if (key !== null) return partitionFor(key, count)
    const next = ((this.#roundRobin.get(topic) ?? -1) + 1) % count
    this.#roundRobin.set(topic, next)
    return next
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

function describeRecords(records: readonly Outgoing[]): string {
  const partitions = [...new Set(records.map(o => `${o.topic}-${o.partition}`))]
  return `${records.length} record(s) to ${partitions.slice(0, 5).join(', ')}${partitions.length > 5 ? ', ...' : ''}`
}
