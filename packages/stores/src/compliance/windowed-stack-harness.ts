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

export interface WindowStackOptions extends StackOptions {
  readonly supplier: (storeName: string) => WindowBytesStoreSupplier
  readonly retentionPeriod: number
  readonly windowSize: number
  readonly retainDuplicates: boolean
}

export interface SessionStackOptions extends StackOptions {
  readonly supplier: (storeName: string) => SessionBytesStoreSupplier
  readonly retentionPeriod: number
}

const APPLICATION_ID = 'compliance'

export function windowStackHarness(options: WindowStackOptions): WindowStoreHarness & StackHarnessExtras<WindowStore<Buffer, Buffer>> {
  const storeName = 'compliance-window'
  const stack = stackHarness(options, storeName, APPLICATION_ID, () =>
    configureStack(Stores.windowStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer()), options)
  )
  return { ...stack, retentionPeriod: options.retentionPeriod, windowSize: options.windowSize, retainDuplicates: options.retainDuplicates }
}

export function sessionStackHarness(options: SessionStackOptions): SessionStoreHarness & StackHarnessExtras<SessionStore<Buffer, Buffer>> {
  const storeName = 'compliance-session'
  const stack = stackHarness(options, storeName, APPLICATION_ID, () =>
    configureStack(Stores.sessionStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer()), options)
  )
  return { ...stack, retentionPeriod: options.retentionPeriod }
}
