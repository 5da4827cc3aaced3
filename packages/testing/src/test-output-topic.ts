/** Reads, deserialized, what a TopologyTestDriver's topology wrote to a topic. */
import { type DeserializerLike, type Deserializer, KeyValue, StreamsError, toDeserializer } from '@kstreams/core'
import { TestRecord, type OutputRecord } from './test-record.js'
import type { CollectedRecord as CapturedRecord } from '@kstreams/core/internal'

/** What the driver offers an output topic. @internal */
export interface OutputSource {
  readOutput(topic: string): CapturedRecord | undefined
  outputSize(topic: string): number
}

/** Reads, deserialized, what a TopologyTestDriver's topology wrote to a topic (Kafka Streams' TestOutputTopic). */
export class TestOutputTopic<K, V> {
  /** The topic's name. */
  readonly name: string
  readonly #driver: OutputSource
  readonly #keyDeserializer: Deserializer<K>
  readonly #valueDeserializer: Deserializer<V>

  /** @internal use TopologyTestDriver.createOutputTopic */
  constructor(driver: OutputSource, name: string, keyDeserializer: DeserializerLike<K>, valueDeserializer: DeserializerLike<V>) {
    this.#driver = driver
    this.name = name
    this.#keyDeserializer = toDeserializer(keyDeserializer)
    this.#valueDeserializer = toDeserializer(valueDeserializer)
  }

  /** Reads the next record; throws (code 'ILLEGAL_STATE') if the topic is empty. */
  readRecord(): OutputRecord<K, V> {
    const captured = this.#driver.readOutput(this.name)
    if (captured === undefined) throw new StreamsError('ILLEGAL_STATE', `Empty topic: ${this.name}`)
    const key = this.#keyDeserializer.deserialize(this.name, captured.key, captured.headers)
    const value = this.#valueDeserializer.deserialize(this.name, captured.value, captured.headers)
    return new TestRecord<K, V>(key, value, captured.timestamp, captured.headers) as OutputRecord<K, V>
  }

  /** Reads the next record's value; throws (code 'ILLEGAL_STATE') if the topic is empty. */
  readValue(): V | null {
    return this.readRecord().value
  }

  /** Reads the next record's key and value; throws (code 'ILLEGAL_STATE') if the topic is empty. */
  readKeyValue(): KeyValue<K | null, V | null> {
    const r = this.readRecord()
    return KeyValue.pair(r.key, r.value)
  }

  /** Reads every record left and returns their values, in order. */
  readValuesToList(): Array<V | null> {
    return this.readRecordsToList().map(r => r.value)
  }

  /** Reads every record left and returns their keys and values, in order. */
  readKeyValuesToList(): Array<KeyValue<K | null, V | null>> {
    return this.readRecordsToList().map(r => KeyValue.pair(r.key, r.value))
  }

  /** Last value per key wins; a null value is kept as null. Null keys are rejected. */
  readKeyValuesToMap(): Map<K, V | null> {
    const map = new Map<K, V | null>()
    for (const r of this.readRecordsToList()) {
      if (r.key === null) throw new StreamsError('ILLEGAL_STATE', `Null keys are not allowed with readKeyValuesToMap (topic ${this.name})`)
      map.set(r.key, r.value)
    }
    return map
  }

  /** Reads every record left, in order. */
  readRecordsToList(): Array<OutputRecord<K, V>> {
    const out: Array<OutputRecord<K, V>> = []
    while (!this.isEmpty()) out.push(this.readRecord())
    return out
  }

  /** How many records are left to read. */
  getQueueSize(): number {
    return this.#driver.outputSize(this.name)
  }

  /** Whether no record is left to read. */
  isEmpty(): boolean {
    return this.getQueueSize() === 0
  }

  /** `TestOutputTopic[topic=name, size=n]`. */
  toString(): string {
    return `TestOutputTopic[topic=${this.name}, size=${this.getQueueSize()}]`
  }
}
