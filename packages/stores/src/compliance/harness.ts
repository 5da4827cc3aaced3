/**
 * What a backend gives the compliance suite: a way to open a fresh store of each kind (over
 * Buffers, so every layer beneath the metered one is exercised byte for byte), to reopen it on
 * the same files (persistent backends), and to clean up.
 */
import type { KeyValueStore, SessionStore, StateStore, WindowStore } from '@kstreams/core'

/** What a backend gives the compliance suite for one kind of store: open, reopen, commit and clean up. */
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

/** The harness of a window store, with the arguments its stores were made with. */
export interface WindowStoreHarness extends StoreHarness<WindowStore<Buffer, Buffer>> {
  /** The stores' retention period (ms); at least 20. */
  readonly retentionPeriod: number
  /** The stores' window size (ms); at least 1, at most the retention period. */
  readonly windowSize: number
  /** Whether the stores retain duplicates. */
  readonly retainDuplicates: boolean
}

/** The harness of a session store, with the retention period its stores were made with. */
export interface SessionStoreHarness extends StoreHarness<SessionStore<Buffer, Buffer>> {
  /** The stores' retention period (ms); at least 20. */
  readonly retentionPeriod: number
}

/** The harness of a key-value store. */
export type KeyValueStoreHarness = StoreHarness<KeyValueStore<Buffer, Buffer>>
