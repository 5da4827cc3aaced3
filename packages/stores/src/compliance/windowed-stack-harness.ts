/**
 * Window and session harnesses over the full store stack the builders compose: metered (Buffer
 * serdes) -> caching -> change-logging -> the backend of a supplier. Each store gets its own
 * TestStoreContext, whose captured changelog and record cache are kept across reopens (the same
 * task on the same thread), and, when a state directory root is given, its own state directory,
 * removed by cleanup(). openFromChangelog() opens a new, empty store of the same stack and feeds
 * it changelog records as a restore would.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Serdes } from '@kstreams/core'
import type { SessionBytesStoreSupplier, SessionStore, StateStore, StateStoreContext, StoreBuilder, WindowBytesStoreSupplier, WindowStore } from '@kstreams/core'
import type { SessionStoreHarness, StoreHarness, WindowStoreHarness } from './harness.js'
import { createTestStoreContext } from './test-context.js'
import type { CapturedChangelogRecord, TestStoreContext } from './test-context.js'
import { Stores } from '../stores.js'

type RecordCache = NonNullable<StateStoreContext['cache']>

export interface StackOptions {
  /** The display name, e.g. 'metered -> caching -> change-logging -> in-memory'. */
  readonly name: string
  readonly persistent: boolean
  /** Where each open() makes a fresh state directory; the temp directory when persistent, else none. */
  readonly stateDirRoot?: string | undefined
  /** Makes the record cache of a new store; none (caching writes through) when undefined. */
  readonly newCache?: (() => RecordCache) | undefined
  /** Whether the builder enables caching (default true) and logging (default true). */
  readonly caching?: boolean
  readonly logging?: boolean
}

export interface StackHarnessExtras<S extends StateStore> {
  /** The context `store` was initialised with: its registrations and captured changelog. */
  contextOf(store: S): TestStoreContext
  /** A new, empty store of the same stack, restored from `records`. */
  openFromChangelog(records: ReadonlyArray<CapturedChangelogRecord>): Promise<S>
}

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

interface Toggles {
  withCachingEnabled(): unknown
  withCachingDisabled(): unknown
  withLoggingEnabled(): unknown
  withLoggingDisabled(): unknown
}

function configure<B extends Toggles> (builder: B, options: StackOptions): B {
  if (options.caching ?? true) builder.withCachingEnabled()
  else builder.withCachingDisabled()
  if (options.logging ?? true) builder.withLoggingEnabled()
  else builder.withLoggingDisabled()
  return builder
}

export function windowStackHarness (options: WindowStackOptions): WindowStoreHarness & StackHarnessExtras<WindowStore<Buffer, Buffer>> {
  const storeName = 'compliance-window'
  const stack = stackHarness(options, storeName, () => configure(Stores.windowStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer()), options))
  return { ...stack, retentionPeriod: options.retentionPeriod, windowSize: options.windowSize, retainDuplicates: options.retainDuplicates }
}

export function sessionStackHarness (options: SessionStackOptions): SessionStoreHarness & StackHarnessExtras<SessionStore<Buffer, Buffer>> {
  const storeName = 'compliance-session'
  const stack = stackHarness(options, storeName, () => configure(Stores.sessionStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer()), options))
  return { ...stack, retentionPeriod: options.retentionPeriod }
}

function stackHarness<S extends StateStore> (options: StackOptions, storeName: string, newBuilder: () => StoreBuilder<S>): StoreHarness<S> & StackHarnessExtras<S> {
  const stores = new Map<S, { builder: StoreBuilder<S>, context: TestStoreContext }>()
  const stateDirs: string[] = []

  const newStateDir = async (): Promise<string | undefined> => {
    const root = options.stateDirRoot ?? (options.persistent ? tmpdir() : undefined)
    if (root === undefined) return undefined
    await mkdir(root, { recursive: true })
    const dir = await mkdtemp(join(root, `kstreams-${storeName}-`))
    stateDirs.push(dir)
    return dir
  }
  const start = async (builder: StoreBuilder<S>, context: TestStoreContext): Promise<S> => {
    const store = builder.build()
    await store.init(context, store)
    stores.set(store, { builder, context })
    return store
  }
  const entryOf = (store: S): { builder: StoreBuilder<S>, context: TestStoreContext } => {
    const entry = stores.get(store)
    if (entry === undefined) throw new Error(`Store "${store.name}" was not opened by harness "${options.name}"`)
    return entry
  }
  const freshContext = async (): Promise<TestStoreContext> =>
    createTestStoreContext({ stateDir: await newStateDir(), config: { applicationId: APPLICATION_ID }, cache: options.newCache?.() })

  return {
    name: options.name,
    persistent: options.persistent,
    async open () {
      return await start(newBuilder(), await freshContext())
    },
    async reopen (store) {
      const entry = entryOf(store)
      store.close()
      // The same task reopening its store: same state directory, the changelog continues.
      const context = createTestStoreContext({
        stateDir: entry.context.stateDir,
        config: { applicationId: APPLICATION_ID },
        changelog: entry.context.changelog,
        cache: entry.context.cache
      })
      return await start(entry.builder, context)
    },
    commit (store) {
      store.flush()
    },
    async cleanup () {
      for (const store of stores.keys()) store.close()
      stores.clear()
      for (const dir of stateDirs.splice(0)) await rm(dir, { recursive: true, force: true, maxRetries: 5 })
    },
    contextOf (store) {
      return entryOf(store).context
    },
    async openFromChangelog (records) {
      const context = await freshContext()
      const store = await start(newBuilder(), context)
      context.restore(storeName, records)
      return store
    }
  }
}
