/**
 * Builds the shared store of a left/outer stream-stream join: an OuterJoinStore (the list layer)
 * over the metered, optionally change-logged key-value bytes store of the supplier. Caching is
 * always off, as in Kafka. @internal
 */
import { KeyValueStoreBuilder, Serdes } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, StoreBuilder } from '@kstreams/core'
import { OuterJoinStore } from './outer-join-store.js'

export class OuterJoinStoreBuilder implements StoreBuilder<OuterJoinStore> {
  readonly #inner: KeyValueStoreBuilder<Buffer, Buffer>

  constructor(supplier: KeyValueBytesStoreSupplier, loggingEnabled: boolean, logConfig: Readonly<Record<string, string>>) {
    this.#inner = new KeyValueStoreBuilder<Buffer, Buffer>(supplier, Serdes.Buffer(), Serdes.Buffer())
    this.#inner.withCachingDisabled()
    if (loggingEnabled) this.#inner.withLoggingEnabled(logConfig)
    else this.#inner.withLoggingDisabled()
  }

  get name(): string {
    return this.#inner.name
  }
  get loggingEnabled(): boolean {
    return this.#inner.loggingEnabled
  }
  get logConfig(): Readonly<Record<string, string>> {
    return this.#inner.logConfig
  }

  build(): OuterJoinStore {
    return new OuterJoinStore(this.#inner.build())
  }
}
