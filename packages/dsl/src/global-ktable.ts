/**
 * A table replicated in full on every instance (Kafka Streams' `GlobalKTable`), built by
 * `StreamsBuilder.globalTable`. It has no operators: streams join it with `KStream.join` /
 * `leftJoin` and a key selector. Its store is always materialized and readable from any task.
 */
import type { KTableValueGetterSupplier } from './internal/ktable-processor-supplier.js'

/** A table replicated in full on every instance (Kafka Streams' GlobalKTable); streams join it with a key selector. */
export class GlobalKTable<K, V> {
  /** @internal Reads the global store by key. */
  readonly valueGetterSupplier: KTableValueGetterSupplier<K, V>
  readonly #queryableStoreName: string | undefined

  /** @internal */
  constructor(valueGetterSupplier: KTableValueGetterSupplier<K, V>, queryableStoreName: string | undefined) {
    this.valueGetterSupplier = valueGetterSupplier
    this.#queryableStoreName = queryableStoreName
  }

  /** The name of the store to query, or undefined when the store was not named. */
  get queryableStoreName(): string | undefined {
    return this.#queryableStoreName
  }
}
