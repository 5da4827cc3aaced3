/** A record piped into or read from a test topic (Kafka Streams' `TestRecord`). */
import { Headers } from '@kstreams/core'

export class TestRecord<K, V> {
  readonly key: K | null
  readonly value: V | null
  readonly timestamp: number | undefined
  readonly headers: Headers

  constructor(key: K | null, value: V | null, timestamp?: number, headers: Headers = new Headers()) {
    this.key = key
    this.value = value
    this.timestamp = timestamp
    this.headers = headers
  }

  toString(): string {
    return `TestRecord[key=${String(this.key)}, value=${String(this.value)}, timestamp=${String(this.timestamp)}]`
  }
}

/** A record read from an output topic: its timestamp is always known. */
export type OutputRecord<K, V> = TestRecord<K, V> & { readonly timestamp: number }
