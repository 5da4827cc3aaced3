/**
 * A key-value harness over the full store stack a builder composes: metered (Buffer serdes) ->
 * caching -> change-logging -> the backend bytes store of a supplier, run by stackHarness (each
 * store with its own TestStoreContext and state directory, kept across reopens). Without a
 * record cache the caching layer writes straight through.
 */
import { Serdes } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, KeyValueStore } from '@kstreams/core'
import { Stores } from '../stores.js'
import type { KeyValueStoreHarness } from './harness.js'
import { configureStack, stackHarness } from './stack-harness.js'
import type { StackHarnessExtras, StackOptions } from './stack-harness.js'

/** @inline */
type BytesStore = KeyValueStore<Buffer, Buffer>

/** The stack options (name, persistent, stateDirRoot, newCache, caching, logging) plus: */
export interface KeyValueStackHarnessOptions extends StackOptions {
  /** A supplier of the backend bytes store for a store name; called once per open(). */
  readonly supplier: (storeName: string) => KeyValueBytesStoreSupplier
  /** The store name (default 'compliance-kv'). */
  readonly storeName?: string
  /** The application id the store contexts use (default 'compliance'). */
  readonly applicationId?: string
}

/**
 * contextOf(store): the context `store` was initialised with (registrations, captured changelog);
 * openFromChangelog(records): a new, empty store of the same stack, fed `records` through the
 * restore callback it registered, as the restore of its changelog would.
 */
export interface KeyValueStackHarness extends KeyValueStoreHarness, StackHarnessExtras<BytesStore> {}

/** A key-value harness over the full store stack (metered -> caching -> change-logging -> the supplier's backend). */
export function createKeyValueStackHarness(options: KeyValueStackHarnessOptions): KeyValueStackHarness {
  const storeName = options.storeName ?? 'compliance-kv'
  return stackHarness(options, storeName, options.applicationId ?? 'compliance', () =>
    configureStack(Stores.keyValueStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer()), options)
  )
}
