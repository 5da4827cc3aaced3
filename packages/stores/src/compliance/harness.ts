/**
 * What a backend gives the compliance suite: a way to open a fresh store of each kind (over
 * Buffers, so every layer beneath the metered one is exercised byte for byte), to reopen it on
 * the same files (persistent backends), and to clean up.
 */
import type { KeyValueStore, SessionStore, StateStore, WindowStore } from '@kstreams/core'

export interface StoreHarness<S extends StateStore> {
  /** A display name for the test titles, e.g. "in-memory" or "rocksdb + caching + logging". */
  readonly name: string
  /** Whether the store keeps its data across close and reopen. */
  readonly persistent: boolean
  /** Opens a new, empty, initialised store (a fresh directory for persistent backends). */
  open(): Promise<S>
  /** Closes `store` and opens the same store again on the same files. Required when persistent. */
  reopen?(store: S): Promise<S>
  /** Commits what the store buffers (flush), as a task commit would. */
  commit(store: S): void | Promise<void>
  /** Removes every file the harness created. */
  cleanup(): Promise<void>
}

export interface WindowStoreHarness extends StoreHarness<WindowStore<Buffer, Buffer>> {
  readonly retentionPeriod: number
  readonly windowSize: number
  readonly retainDuplicates: boolean
}

export interface SessionStoreHarness extends StoreHarness<SessionStore<Buffer, Buffer>> {
  readonly retentionPeriod: number
}

export type KeyValueStoreHarness = StoreHarness<KeyValueStore<Buffer, Buffer>>
