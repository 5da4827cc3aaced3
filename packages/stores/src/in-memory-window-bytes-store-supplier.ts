/**
 * Supplies in-memory window bytes stores (what Kafka's Stores.inMemoryWindowStore returns): a new
 * InMemoryWindowStore per get(), metrics scope 'in-memory-window'. The arguments are checked here,
 * as Kafka's Stores does: retention and window size non-negative, retention >= window size.
 */
import { checkRetainDuplicates, checkWindowStoreArguments, validateStoreName } from '@kstreams/core/internal'
import type { WindowBytesStore, WindowBytesStoreSupplier } from '@kstreams/core'
import { InMemoryWindowStore } from './in-memory-window-store.js'

/** Supplies in-memory window bytes stores (Stores.inMemoryWindowStore). */
export class InMemoryWindowBytesStoreSupplier implements WindowBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'in-memory-window'
  readonly retentionPeriod: number
  readonly windowSize: number
  readonly retainDuplicates: boolean
  /** The in-memory store keeps one map per window start, so Kafka reports 1 ms here. */
  readonly segmentInterval = 1

  /** Throws ILLEGAL_ARGUMENT naming the store when an argument is invalid. */
  constructor(name: string, retentionPeriod: number, windowSize: number, retainDuplicates: boolean) {
    this.name = validateStoreName(name)
    checkWindowStoreArguments(name, retentionPeriod, windowSize)
    this.retentionPeriod = retentionPeriod
    this.windowSize = windowSize
    this.retainDuplicates = checkRetainDuplicates(name, retainDuplicates)
  }

  get(): WindowBytesStore {
    return new InMemoryWindowStore({
      name: this.name,
      retentionPeriod: this.retentionPeriod,
      windowSize: this.windowSize,
      retainDuplicates: this.retainDuplicates
    })
  }
}
