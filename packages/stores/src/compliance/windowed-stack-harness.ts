/**
 * Window and session harnesses over the full store stack the builders compose: metered (Buffer
 * serdes) -> caching -> change-logging -> the backend of a supplier, run by stackHarness (each
 * store with its own TestStoreContext and state directory; openFromChangelog() restores a new,
 * empty store from changelog records).
 */
import { Serdes } from '@kstreams/core'
import type { SessionBytesStoreSupplier, SessionStore, WindowBytesStoreSupplier, WindowStore } from '@kstreams/core'
import type { SessionStoreHarness, WindowStoreHarness } from './harness.js'
import { configureStack, stackHarness } from './stack-harness.js'
import type { StackHarnessExtras, StackOptions } from './stack-harness.js'
import { Stores } from '../stores.js'

export type { StackHarnessExtras, StackOptions } from './stack-harness.js'

/** The options of windowStackHarness: the stack options plus the backend and the store's arguments. */
export interface WindowStackOptions extends StackOptions {
  /** A supplier of the backend bytes store for a store name; called once per open(). */
  readonly supplier: (storeName: string) => WindowBytesStoreSupplier
  /** The retention period (ms) the supplier was made with. */
  readonly retentionPeriod: number
  /** The window size (ms) the supplier was made with. */
  readonly windowSize: number
  /** Whether the supplier retains duplicates. */
  readonly retainDuplicates: boolean
}

/** The options of sessionStackHarness: the stack options plus the backend and its retention period. */
export interface SessionStackOptions extends StackOptions {
  /** A supplier of the backend bytes store for a store name; called once per open(). */
  readonly supplier: (storeName: string) => SessionBytesStoreSupplier
  /** The retention period (ms) the supplier was made with. */
  readonly retentionPeriod: number
}

const APPLICATION_ID = 'compliance'

/** A window store harness over the full store stack (metered -> caching -> change-logging -> the supplier's backend). */
export function windowStackHarness(options: WindowStackOptions): WindowStoreHarness & StackHarnessExtras<WindowStore<Buffer, Buffer>> {
  const storeName = 'compliance-window'
  const stack = stackHarness(options, storeName, APPLICATION_ID, () =>
    configureStack(Stores.windowStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer()), options)
  )
  return { ...stack, retentionPeriod: options.retentionPeriod, windowSize: options.windowSize, retainDuplicates: options.retainDuplicates }
}

/** A session store harness over the full store stack (metered -> caching -> change-logging -> the supplier's backend). */
export function sessionStackHarness(options: SessionStackOptions): SessionStoreHarness & StackHarnessExtras<SessionStore<Buffer, Buffer>> {
  const storeName = 'compliance-session'
  const stack = stackHarness(options, storeName, APPLICATION_ID, () =>
    configureStack(Stores.sessionStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer()), options)
  )
  return { ...stack, retentionPeriod: options.retentionPeriod }
}
