/**
 * The shape of the key-value compliance modules: each operation module is a list of checks plus
 * the call that must fail with STORE_NOT_OPEN on a closed store. The runner decides where a check
 * runs (fresh store, reopened store) and repeats its read-only part after commit and reopen.
 */
import type { KeyValueStore } from '@kstreams/core'

export type BytesKeyValueStore = KeyValueStore<Buffer, Buffer>

/** What a check may ask of the runner. */
export interface CheckContext {
  /** Commits the store as a task commit would (flushes caches below the metered layer). */
  commit(): Promise<void>
  /**
   * Closes the store and opens it again on the same files (what the harness's reopen does);
   * verify() then runs on the returned store. Only for harnesses that can reopen.
   */
  reopen(): Promise<BytesKeyValueStore>
}

export interface KeyValueCheck {
  readonly title: string
  /** Acts on the store and asserts what the calls return. */
  run(store: BytesKeyValueStore, context: CheckContext): void | Promise<void>
  /**
   * Read-only assertions on the state `run` left behind. The runner repeats them after a commit
   * and, for a persistent backend, again after the store is reopened on the same files.
   */
  verify?(store: BytesKeyValueStore): void
}

export interface KeyValueOperationSuite {
  /** The describe() title, e.g. 'putIfAbsent'. */
  readonly title: string
  readonly checks: readonly KeyValueCheck[]
  /** Calls of the module's operation, by name; each must throw STORE_NOT_OPEN on a closed store. */
  readonly closedStoreCalls?: Readonly<Record<string, (store: BytesKeyValueStore) => unknown>>
}
