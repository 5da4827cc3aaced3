/**
 * The harness over a full store stack that the key-value, window and session stack harnesses
 * share: each open() builds a store (metered -> caching -> change-logging -> backend) with its
 * own TestStoreContext, whose captured changelog and record cache are kept across reopens (the
 * same task on the same thread), and, when a state directory root is given or the backend is
 * persistent, its own state directory, removed by cleanup(). openFromChangelog() opens a new,
 * empty store of the same stack and feeds it changelog records as a restore would.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StreamsError } from '@kstreams/core'
import type { StateStore, StateStoreContext, StoreBuilder } from '@kstreams/core'
import type { StoreHarness } from './harness.js'
import { createTestStoreContext } from './test-context.js'
import type { CapturedChangelogRecord, TestStoreContext } from './test-context.js'

type RecordCache = NonNullable<StateStoreContext['cache']>

/** The options of a harness over a full store stack (metered -> caching -> change-logging -> backend). */
export interface StackOptions {
  /** The display name, e.g. 'metered -> caching -> change-logging -> in-memory'. */
  readonly name: string
  /** Whether the backend keeps its data across close and reopen. */
  readonly persistent: boolean
  /** Where each open() makes a fresh state directory; the temp directory when persistent, else none. */
  readonly stateDirRoot?: string | undefined
  /** Makes the record cache of a new store; none (caching writes through) when undefined. */
  readonly newCache?: (() => RecordCache) | undefined
  /** Whether the builder enables caching (default true) and logging (default true). */
  readonly caching?: boolean
  /** Whether the builder enables logging (default true). */
  readonly logging?: boolean
}

/** What a stack harness adds to a StoreHarness: the store's test context, and restores from a changelog. */
export interface StackHarnessExtras<S extends StateStore> {
  /** The context `store` was initialised with: its registrations and captured changelog. */
  contextOf(store: S): TestStoreContext
  /** A new, empty store of the same stack, restored from `records`. */
  openFromChangelog(records: ReadonlyArray<CapturedChangelogRecord>): Promise<S>
}

interface Toggles {
  withCachingEnabled(): unknown
  withCachingDisabled(): unknown
  withLoggingEnabled(): unknown
  withLoggingDisabled(): unknown
}

/** Enables or disables caching and logging on `builder` as `options` say. */
export function configureStack<B extends Toggles>(builder: B, options: StackOptions): B {
  if (options.caching ?? true) builder.withCachingEnabled()
  else builder.withCachingDisabled()
  if (options.logging ?? true) builder.withLoggingEnabled()
  else builder.withLoggingDisabled()
  return builder
}

/** A harness whose stores `newBuilder` makes, named `storeName`, in application `applicationId`. */
export function stackHarness<S extends StateStore>(
  options: StackOptions,
  storeName: string,
  applicationId: string,
  newBuilder: () => StoreBuilder<S>
): StoreHarness<S> & StackHarnessExtras<S> {
  const stores = new Map<S, { builder: StoreBuilder<S>; context: TestStoreContext }>()
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
  const entryOf = (store: S): { builder: StoreBuilder<S>; context: TestStoreContext } => {
    const entry = stores.get(store)
    if (entry === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${store.name}" was not opened by harness "${options.name}"`)
    return entry
  }
  const freshContext = async (): Promise<TestStoreContext> =>
    createTestStoreContext({ stateDir: await newStateDir(), config: { applicationId }, cache: options.newCache?.() })

  return {
    name: options.name,
    persistent: options.persistent,
    async open() {
      return await start(newBuilder(), await freshContext())
    },
    async reopen(store) {
      const entry = entryOf(store)
      store.close()
      // The same task reopening its store: same state directory, the changelog continues.
      const context = createTestStoreContext({
        stateDir: entry.context.stateDir,
        config: { applicationId },
        changelog: entry.context.changelog,
        cache: entry.context.cache
      })
      return await start(entry.builder, context)
    },
    commit(store) {
      store.flush()
    },
    async cleanup() {
      for (const store of stores.keys()) store.close()
      stores.clear()
      for (const dir of stateDirs.splice(0)) await rm(dir, { recursive: true, force: true, maxRetries: 5 })
    },
    contextOf(store) {
      return entryOf(store).context
    },
    async openFromChangelog(records) {
      const context = await freshContext()
      const store = await start(newBuilder(), context)
      context.restore(storeName, records)
      return store
    }
  }
}
