/**
 * Supplies in-memory session bytes stores (what Kafka's Stores.inMemorySessionStore returns): a
 * new InMemorySessionStore per get(), metrics scope 'in-memory-session'. The retention period is
 * checked here, as Kafka's Stores does: it cannot be negative.
 */
import { checkRetentionPeriod, validateStoreName } from '@kstreams/core/internal'
import type { SessionBytesStore, SessionBytesStoreSupplier } from '@kstreams/core'
import { InMemorySessionStore } from './in-memory-session-store.js'

/** Supplies in-memory session bytes stores (Stores.inMemorySessionStore). */
export class InMemorySessionBytesStoreSupplier implements SessionBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'in-memory-session'
  readonly retentionPeriod: number
  /** The in-memory store keeps one map per session end, so Kafka reports 1 ms here. */
  readonly segmentInterval = 1

  /** Throws ILLEGAL_ARGUMENT naming the store when an argument is invalid. */
  constructor(name: string, retentionPeriod: number) {
    this.name = validateStoreName(name)
    this.retentionPeriod = checkRetentionPeriod(name, retentionPeriod)
  }

  get(): SessionBytesStore {
    return new InMemorySessionStore(this.name, this.retentionPeriod)
  }
}
