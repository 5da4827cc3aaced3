/**
 * Supplies in-memory key-value bytes stores (what Kafka's Stores.inMemoryKeyValueStore returns):
 * a new InMemoryKeyValueStore per get(), metrics scope 'in-memory'.
 */
import { validateStoreName } from '@kstreams/core/internal'
import type { KeyValueBytesStore, KeyValueBytesStoreSupplier } from '@kstreams/core'
import { InMemoryKeyValueStore } from './in-memory-key-value-store.js'

/** Supplies in-memory key-value bytes stores (Stores.inMemoryKeyValueStore). */
export class InMemoryKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'in-memory'

  /** Throws ILLEGAL_ARGUMENT when the name is not a legal store name. */
  constructor(name: string) {
    this.name = validateStoreName(name)
  }

  get(): KeyValueBytesStore {
    return new InMemoryKeyValueStore(this.name)
  }
}
