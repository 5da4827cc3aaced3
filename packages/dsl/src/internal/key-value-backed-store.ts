/**
 * What the DSL's own stores over a key-value bytes store share (the outer-join store of
 * stream-stream joins, the grace-period buffer of stream-table joins): the store's lifecycle is
 * the inner store's, and the builder wraps a KeyValueStoreBuilder of raw bytes with caching off
 * (as Kafka) and logging as asked. @internal
 */
import { KeyValueStoreBuilder, Serdes } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, KeyValueStore, StateStore, StateStoreContext, StoreBuilder } from '@kstreams/core'

/** A store whose data lives in `inner` (the metered, optionally change-logged bytes store). */
export abstract class KeyValueBackedStore implements StateStore {
  protected readonly inner: KeyValueStore<Buffer, Buffer>

  constructor(inner: KeyValueStore<Buffer, Buffer>) {
    this.inner = inner
  }

  get name(): string {
    return this.inner.name
  }
  get persistent(): boolean {
    return this.inner.persistent
  }
  init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    return this.inner.init(context, root)
  }
  flush(): void {
    this.inner.flush()
  }
  close(): void {
    this.inner.close()
  }
  isOpen(): boolean {
    return this.inner.isOpen()
  }
}

/** Builds a KeyValueBackedStore around a new bytes store of the supplier. */
export abstract class KeyValueBackedStoreBuilder<S extends StateStore> implements StoreBuilder<S> {
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

  /** The store around a new inner store. */
  build(): S {
    return this.wrap(this.#inner.build())
  }

  /** Wraps the inner store. */
  protected abstract wrap(inner: KeyValueStore<Buffer, Buffer>): S
}
