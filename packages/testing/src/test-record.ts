/** A record piped into or read from a test topic (Kafka Streams' `TestRecord`). */
import { Headers } from '@kstreams/core'

/** A record piped into or read from a test topic (Kafka Streams' TestRecord). */
export class TestRecord<K, V> {
  /** The key; null for none. */
  readonly key: K | null
  /** The value; null for a tombstone. */
  readonly value: V | null
  /** The timestamp (ms); undefined on input: the input topic's time. */
  readonly timestamp: number | undefined
  /** The headers. */
  readonly headers: Headers

  constructor(key: K | null, value: V | null, timestamp?: number, headers: Headers = new Headers()) {
    this.key = key
    this.value = value
    this.timestamp = timestamp
    this.headers = headers
  }

  /** `TestRecord[key=…, value=…, timestamp=…]`. */
  toString(): string {
    return `TestRecord[key=${String(this.key)}, value=${String(this.value)}, timestamp=${String(this.timestamp)}]`
  }
}

/** A record read from an output topic: its timestamp is always known. */
export type OutputRecord<K, V> = TestRecord<K, V> & {
  /** The timestamp (ms) the record was written with. */
  readonly timestamp: number
}
