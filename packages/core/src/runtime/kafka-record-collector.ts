/**
 * Sends a stream thread's output and changelog records through its producer. Sends are buffered
 * and go out in batches, one batch in flight at a time (kafkajs #1005 cannot lose records that
 * way), when a batch fills, when the linger time passes, or at flush (commit). It chooses the
 * partition of keyed records like the Java producer (murmur2), remembers the offset Kafka gave
 * the last record of every partition (changelog offsets for checkpoints), sends a batch again
 * after a retriable error (until the retry timeout), and keeps a failed send to throw it at the
 * next send or flush: nothing is dropped silently, except the output of tasks the thread no
 * longer owns (see `stillOwner`), which their new owner produces again. @internal
 */
import type { Headers } from '../record.js'
import { StreamsError } from '../errors.js'
import { partitionFor } from '../partitioner/murmur2.js'
import type { CollectedRecord, RecordCollector } from './record-collector.js'
import { tpKey, type AdminPort, type ProducedRecord, type ProducerPort } from './kafka/ports.js'
import { isRetriable } from './retrying.js'

export interface KafkaRecordCollectorOptions {
  readonly producer: ProducerPort
  readonly admin: Pick<AdminPort, 'partitionCounts'>
  /** Records per send (a send starts without waiting for the linger time once this many are buffered). */
  readonly batchSize?: number
  /** Approximate bytes per send; default 900 KiB (under the broker's 1 MB max.message.bytes). */
  readonly maxRequestBytes?: number
  readonly lingerMs?: number
  /** Called when a batch failed (the error is also thrown at the next send or flush). */
  readonly onSendError?: (error: StreamsError) => void
  /** The production exception handler's response for a record whose send failed; default FAIL. */
  readonly onRecordError?: (record: { topic: string, partition: number | undefined }, error: Error) => 'CONTINUE' | 'FAIL' | 'RETRY'
  /** How long a batch is sent again after retriable errors or while the handler answers RETRY (task.timeout.ms). */
  readonly retryTimeoutMs?: number
  /**
   * Asked before each send: whether the thread still owns the tasks whose output it is (the
   * group member may have been evicted while sends failed). When not, what is buffered is
   * dropped: the tasks' new owner produces it again from their last commit, and a late write
   * of the old owner would put an older value last in a changelog. Default: always.
   */
  readonly stillOwner?: () => Promise<boolean>
}

/** Per-record framing counted against maxRequestBytes (headers, offsets, timestamps). */
const RECORD_OVERHEAD_BYTES = 64

interface Pending {
  readonly topic: string
  readonly partition: number | undefined
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  readonly timestamp: number
}

export class KafkaRecordCollector implements RecordCollector {
  readonly #options: KafkaRecordCollectorOptions
  readonly #partitionCounts = new Map<string, number>()
  readonly #acked = new Map<string, number>()
  readonly #roundRobin = new Map<string, number>()
  #buffer: Pending[] = []
  #inflight: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined
  #error: StreamsError | undefined
  #sentRecords = 0
  readonly #batchSize: number
  readonly #lingerMs: number
  readonly #maxRequestBytes: number

  constructor (options: KafkaRecordCollectorOptions) {
    this.#options = options
    this.#batchSize = options.batchSize ?? 2000
    this.#lingerMs = options.lingerMs ?? 100
    this.#maxRequestBytes = options.maxRequestBytes ?? 900 * 1024
  }

  /** Partition counts learned elsewhere (e.g. from the assignment), so sends need no lookup. */
  registerPartitionCount (topic: string, count: number): void {
    this.#partitionCounts.set(topic, count)
  }

  partitionsFor (topic: string): number {
    const count = this.#partitionCounts.get(topic)
    if (count === undefined) {
      throw new StreamsError('UNKNOWN_TOPIC', `The partition count of output topic ${topic} is not known yet; a StreamPartitioner needs it. Create the topic before the application starts.`, { retriable: true })
    }
    return count
  }

  send (record: CollectedRecord): void {
    this.#throwIfFailed()
    this.#buffer.push(record)
    if (this.#buffer.length >= this.#batchSize) {
      this.#startSend()
    } else if (this.#timer === undefined && this.#inflight === undefined) {
      this.#timer = setTimeout(() => { this.#timer = undefined; this.#startSend() }, this.#lingerMs)
    }
  }

  /** Sends everything buffered and waits for the acknowledgements; throws a failed send. */
  async flush (): Promise<void> {
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
  get buffered (): number {
    return this.#buffer.length
  }

  /** Waits until the send in flight (if any) completes: backpressure for the processing loop. */
  async drain (): Promise<void> {
    this.#throwIfFailed()
    if (this.#inflight === undefined) this.#startSend()
    await this.#inflight
    this.#throwIfFailed()
  }

  /** The offset of the last acknowledged record of a partition (changelog offsets for checkpoints). */
  ackedOffset (topic: string, partition: number): number | undefined {
    return this.#acked.get(tpKey(topic, partition))
  }

  get sentRecords (): number {
    return this.#sentRecords
  }

  /** Drops what is buffered (a dirty close: the records will be reprocessed). */
  discard (): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    this.#buffer = []
  }

  #throwIfFailed (): void {
    if (this.#error !== undefined) throw this.#error
  }

  #startSend (): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    if (this.#inflight !== undefined || this.#buffer.length === 0 || this.#error !== undefined) return
    const batch = this.#takeBatch()
    this.#inflight = this.#sendBatch(batch).then(() => {
      this.#inflight = undefined
      // What piled up while this batch was in flight goes out now (linger applies to an idle collector).
      if (this.#buffer.length > 0) this.#startSend()
    })
  }

  /**
   * The next batch to send: at most batchSize records and about maxRequestBytes (so no
   * partition's record batch passes the broker's 1 MB default `max.message.bytes`, and one send
   * never blocks the event loop for long).
   */
  #takeBatch (): Pending[] {
    let bytes = 0
    let n = 0
    while (n < this.#buffer.length && n < this.#batchSize) {
      const r = this.#buffer[n]!
      bytes += (r.key?.length ?? 0) + (r.value?.length ?? 0) + RECORD_OVERHEAD_BYTES
      if (n > 0 && bytes > this.#maxRequestBytes) break
      n++
    }
    return this.#buffer.splice(0, n)
  }

  async #sendBatch (batch: Pending[]): Promise<void> {
    try {
      if (!await this.#owned()) return
      const unknown = [...new Set(batch.filter(r => r.partition === undefined && !this.#partitionCounts.has(r.topic)).map(r => r.topic))]
      if (unknown.length > 0) {
        const counts = await this.#options.admin.partitionCounts(unknown)
        for (const [topic, count] of counts) this.#partitionCounts.set(topic, count)
        const missing = unknown.filter(t => !counts.has(t))
        if (missing.length > 0) throw new StreamsError('UNKNOWN_TOPIC', `Output topic(s) ${missing.join(', ')} do not exist`)
      }
      const records: ProducedRecord[] = batch.map(r => ({
        topic: r.topic,
        partition: r.partition ?? this.#choosePartition(r.topic, r.key),
        key: r.key,
        value: r.value,
        headers: r.headers,
        timestamp: r.timestamp
      }))
      const result = await this.#sendWithHandler(records)
      if (result === undefined) return
      for (const [key, offset] of result) this.#acked.set(key, offset)
      this.#sentRecords += records.length
    } catch (err) {
      const first = batch[0]!
      const error = err instanceof StreamsError && err.code !== 'KAFKA'
        ? err
        : new StreamsError('SEND_FAILED', `Error sending ${batch.length} record(s) (first to topic ${first.topic}): ${err instanceof Error ? err.message : String(err)}`, { cause: err })
      this.#error ??= error
      this.#options.onSendError?.(error)
    }
  }

  /**
   * Sends a batch; a retriable error is retried until the retry timeout (no handler involved).
   * When it fails otherwise, the production exception handler decides per record: any FAIL
   * fails the batch, RETRY sends it again until the retry timeout, and a batch whose records all
   * CONTINUE is skipped (logged by the caller's handler). Returns undefined when skipped.
   */
  async #sendWithHandler (records: ProducedRecord[]): Promise<Map<string, number> | undefined> {
    const deadline = Date.now() + (this.#options.retryTimeoutMs ?? 300000)
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#options.producer.send(records)
      } catch (err) {
        // A lost connection or a moved leader: sent again, as Java's producer retries until
        // delivery.timeout.ms (the ports make plain requests, so this is the runtime's job).
        if (isRetriable(err) && Date.now() < deadline) {
          await new Promise(resolve => setTimeout(resolve, Math.min(1000, 50 * attempt)))
          if (!await this.#owned()) return undefined
          continue
        }
        const handler = this.#options.onRecordError
        if (handler === undefined) throw err
        const error = err instanceof Error ? err : new Error(String(err))
        const responses = new Set(records.map(r => handler({ topic: r.topic, partition: r.partition }, error)))
        if (responses.has('FAIL')) throw err
        if (responses.has('RETRY') && Date.now() < deadline) {
          await new Promise(resolve => setTimeout(resolve, Math.min(1000, 50 * attempt)))
          continue
        }
        if (responses.has('RETRY')) throw err
        return undefined
      }
    }
  }

  /** Whether the output may still be sent; when not, the buffer is dropped (see `stillOwner`). */
  async #owned (): Promise<boolean> {
    if (this.#options.stillOwner === undefined || await this.#options.stillOwner()) return true
    this.#buffer = []
    return false
  }

  #choosePartition (topic: string, key: Buffer | null): number {
    const count = this.#partitionCounts.get(topic)!
    if (key !== null) return partitionFor(key, count)
    const next = ((this.#roundRobin.get(topic) ?? -1) + 1) % count
    this.#roundRobin.set(topic, next)
    return next
  }
}
