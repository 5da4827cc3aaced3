/**
 * Pipes typed records into a topic of a TopologyTestDriver. Keeps the topic's own time: records
 * without a timestamp get the current time, which then moves by the auto-advance step.
 */
import { type Headers, type KeyValue, type SerializerLike, type Serializer, StreamsError, toSerializer } from '@kstreams/core'
import { TestRecord } from './test-record.js'

/** What the driver offers an input topic. @internal */
export interface InputPipe {
  pipeRecord(topic: string, key: Buffer | null, value: Buffer | null, timestamp: number, headers: Headers): void
}

/** Pipes typed records into an input topic of a TopologyTestDriver (Kafka Streams' TestInputTopic). */
export class TestInputTopic<K, V> {
  /** The topic's name. */
  readonly name: string
  readonly #driver: InputPipe
  readonly #keySerializer: Serializer<K>
  readonly #valueSerializer: Serializer<V>
  #currentTime: number
  readonly #autoAdvanceMs: number

  /** @internal use TopologyTestDriver.createInputTopic */
  constructor(
    driver: InputPipe,
    name: string,
    keySerializer: SerializerLike<K>,
    valueSerializer: SerializerLike<V>,
    startTimestampMs: number,
    autoAdvanceMs: number
  ) {
    if (!Number.isSafeInteger(autoAdvanceMs) || autoAdvanceMs < 0)
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `autoAdvance must be a non-negative number of milliseconds, got ${autoAdvanceMs} (topic ${name})`
      )
    this.#driver = driver
    this.name = name
    this.#keySerializer = toSerializer(keySerializer)
    this.#valueSerializer = toSerializer(valueSerializer)
    this.#currentTime = startTimestampMs
    this.#autoAdvanceMs = autoAdvanceMs
  }

  /** Moves the topic's time forward. */
  advanceTime(ms: number): void {
    if (ms < 0) throw new StreamsError('ILLEGAL_ARGUMENT', `advance must be non-negative, got ${ms} (topic ${this.name})`)
    this.#currentTime += ms
  }

  /** `pipeInput(value)`, `pipeInput(key, value, timestamp?)` or `pipeInput(testRecord)`. */
  pipeInput(value: V | null): void
  pipeInput(record: TestRecord<K, V>): void
  pipeInput(key: K | null, value: V | null, timestamp?: number): void
  pipeInput(...args: unknown[]): void {
    if (args.length === 1) {
      const [only] = args
      if (only instanceof TestRecord) {
        this.#pipe(only as TestRecord<K, V>)
        return
      }
      this.#pipe(new TestRecord<K, V>(null, only as V | null))
      return
    }
    this.#pipe(new TestRecord<K, V>(args[0] as K | null, args[1] as V | null, args[2] as number | undefined))
  }

  /** Pipes a record of each value, without a key. */
  pipeValueList(values: ReadonlyArray<V | null>): void {
    for (const v of values) this.#pipe(new TestRecord<K, V>(null, v))
  }

  /** Pipes a record of each key and value; timestamps from `startTimestampMs` on, `advanceMs` apart, when given. */
  pipeKeyValueList(keyValues: ReadonlyArray<KeyValue<K | null, V | null>>, startTimestampMs?: number, advanceMs?: number): void {
    let ts = startTimestampMs
    for (const kv of keyValues) {
      this.#pipe(new TestRecord<K, V>(kv.key, kv.value, ts))
      if (ts !== undefined) ts += advanceMs ?? 0
    }
  }

  /** Pipes each record (a TestRecord or its fields). */
  pipeRecordList(
    records: ReadonlyArray<TestRecord<K, V> | { key?: K | null; value: V | null; timestamp?: number; headers?: Headers }>
  ): void {
    for (const r of records) {
      this.#pipe(r instanceof TestRecord ? r : new TestRecord<K, V>(r.key ?? null, r.value, r.timestamp, r.headers))
    }
  }

  #pipe(record: TestRecord<K, V>): void {
    let timestamp = record.timestamp
    if (timestamp === undefined) {
      timestamp = this.#currentTime
      this.#currentTime += this.#autoAdvanceMs
    }
    const key = this.#keySerializer.serialize(this.name, record.key, record.headers)
    const value = this.#valueSerializer.serialize(this.name, record.value, record.headers)
    this.#driver.pipeRecord(this.name, key, value, timestamp, record.headers)
  }

  /** `TestInputTopic[topic=name]`. */
  toString(): string {
    return `TestInputTopic[topic=${this.name}]`
  }
}
