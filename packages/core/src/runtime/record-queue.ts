/**
 * The buffered records of one input partition of a task. The head record is deserialized and
 * its timestamp extracted when it becomes the head (lazily, so a deserialization error
 * surfaces when the task chooses its next record), so the task can choose the partition with
 * the smallest head timestamp; this queue owns the partition time. @internal
 */
import type { TimestampExtractor } from '../processor/api.js'
import type { ConsumedRecord } from './consumed-record.js'
import type { SourceNode } from './source-node.js'
import { deserializationFailure } from './deserialization-handler.js'

export interface StampedRecord {
  readonly raw: ConsumedRecord
  readonly key: unknown
  readonly value: unknown
  readonly timestamp: number
}

/** Reports a record dropped (negative timestamp, or a deserialization error the handler skipped). */
export type DropReporter = (record: ConsumedRecord, reason: string) => void

export type { DeserializationErrorHandler } from './deserialization-handler.js'

/** What the task decided about a record its queue cannot deserialize (after sending the handler's dead-letter records). */
export type QueueDeserializationErrorHandler = (record: ConsumedRecord, error: Error) => 'RESUME' | 'FAIL'

export class RecordQueue {
  readonly topic: string
  readonly partition: number
  readonly source: SourceNode
  readonly #extractor: TimestampExtractor
  readonly #onDrop: DropReporter
  readonly #onDeserializationError: QueueDeserializationErrorHandler | undefined
  readonly #fifo: ConsumedRecord[] = []
  #start = 0
  #head: StampedRecord | undefined
  #partitionTime = -1

  constructor(
    topic: string,
    partition: number,
    source: SourceNode,
    extractor: TimestampExtractor,
    onDrop: DropReporter,
    onDeserializationError?: QueueDeserializationErrorHandler
  ) {
    this.topic = topic
    this.partition = partition
    this.source = source
    this.#extractor = extractor
    this.#onDrop = onDrop
    this.#onDeserializationError = onDeserializationError
  }

  add(records: Iterable<ConsumedRecord>): void {
    for (const record of records) this.#fifo.push(record)
  }

  /** Timestamp of the head record, or -1 when empty. */
  get headTimestamp(): number {
    this.#updateHead()
    return this.#head === undefined ? -1 : this.#head.timestamp
  }

  get partitionTime(): number {
    return this.#partitionTime
  }

  set partitionTime(value: number) {
    this.#partitionTime = value
  }

  get size(): number {
    return this.#fifo.length - this.#start + (this.#head === undefined ? 0 : 1)
  }

  isEmpty(): boolean {
    this.#updateHead()
    return this.#head === undefined
  }

  poll(): StampedRecord | undefined {
    this.#updateHead()
    const head = this.#head
    this.#head = undefined
    return head
  }

  clear(): void {
    this.#fifo.length = 0
    this.#start = 0
    this.#head = undefined
  }

  #updateHead(): void {
    while (this.#head === undefined && this.#start < this.#fifo.length) {
      const raw = this.#fifo[this.#start]!
      this.#fifo[this.#start++] = undefined as unknown as ConsumedRecord
      if (this.#start > 1024 && this.#start * 2 > this.#fifo.length) {
        this.#fifo.splice(0, this.#start)
        this.#start = 0
      }
      let key: unknown
      let value: unknown
      try {
        key = this.source.deserializeKey(raw.topic, raw.key, raw.headers)
        value = this.source.deserializeValue(raw.topic, raw.value, raw.headers)
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err))
        const response = this.#onDeserializationError?.(raw, error) ?? 'FAIL'
        if (response === 'FAIL') throw deserializationFailure(raw, error)
        this.#onDrop(raw, `deserialization error: ${error.message}`)
        continue
      }
      const timestamp = this.#extractor(
        { topic: raw.topic, partition: raw.partition, offset: raw.offset, key, value, timestamp: raw.timestamp },
        this.#partitionTime
      )
      if (timestamp < 0) {
        this.#onDrop(raw, `negative extracted timestamp ${timestamp}`)
        continue
      }
      this.#head = { raw, key, value, timestamp }
      if (timestamp > this.#partitionTime) this.#partitionTime = timestamp
    }
    if (this.#start === this.#fifo.length && this.#start > 0) {
      this.#fifo.length = 0
      this.#start = 0
    }
  }
}
