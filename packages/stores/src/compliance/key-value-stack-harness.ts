/**
 * A key-value harness over the full store stack a builder composes: metered (Buffer serdes) ->
 * caching -> change-logging -> the backend bytes store of a supplier. Each store gets its own
 * TestStoreContext, whose captured changelog and record cache are kept across reopens (the same
 * task on the same thread), and, when a state directory root is given, its own state directory,
 * removed by cleanup(). Without a record cache the caching layer writes straight through.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Serdes, StreamsError } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, KeyValueStore, KeyValueStoreBuilder, StateStoreContext } from '@kstreams/core'
import { Stores } from '../stores.js'
import type { KeyValueStoreHarness } from './harness.js'
import { createTestStoreContext } from './test-context.js'
import type { CapturedChangelogRecord, TestStoreContext } from './test-context.js'

type BytesStore = KeyValueStore<Buffer, Buffer>
type RecordCache = NonNullable<StateStoreContext['cache']>

export interface KeyValueStackHarnessOptions {
  /** The display name, e.g. 'in-memory + caching + logging'. */
  readonly name: string
  /** A supplier of the backend bytes store for a store name; called once per open(). */
  readonly supplier: (storeName: string) => KeyValueBytesStoreSupplier
  /** Whether the backend keeps its data across close and reopen. */
  readonly persistent: boolean
  /**
   * Where each open() makes the fresh state directory of its store (created when missing). By
   * default, the system temp directory for a persistent backend, and no state directory otherwise.
   */
  readonly stateDirRoot?: string | undefined
  /** The store name (default 'compliance-kv'). */
  readonly storeName?: string
  /** The application id the store contexts use (default 'compliance'). */
  readonly applicationId?: string
  /** Makes the thread record cache of a new store; none (caching writes through) when undefined. */
  readonly newCache?: (() => RecordCache) | undefined
  /** Whether the builder enables caching (default true) and logging (default true). */
  readonly caching?: boolean
  readonly logging?: boolean
}

export interface KeyValueStackHarness extends KeyValueStoreHarness {
  /** The context `store` was initialised with: its registrations and captured changelog. */
  contextOf(store: BytesStore): TestStoreContext
  /**
   * Opens a new, empty store of the same stack and feeds `records` to the restore callback it
   * registered, as the restore of its changelog would.
   */
  openFromChangelog(records: ReadonlyArray<CapturedChangelogRecord>): Promise<BytesStore>
}

interface OpenStore {
  readonly builder: KeyValueStoreBuilder<Buffer, Buffer>
  readonly context: TestStoreContext
}

export function createKeyValueStackHarness (options: KeyValueStackHarnessOptions): KeyValueStackHarness {
  const storeName = options.storeName ?? 'compliance-kv'
  const applicationId = options.applicationId ?? 'compliance'
  const stores = new Map<BytesStore, OpenStore>()
  const stateDirs: string[] = []

  const newBuilder = (): KeyValueStoreBuilder<Buffer, Buffer> => {
    const builder = Stores.keyValueStoreBuilder(options.supplier(storeName), Serdes.Buffer(), Serdes.Buffer())
    if (options.caching ?? true) builder.withCachingEnabled()
    else builder.withCachingDisabled()
    if (options.logging ?? true) builder.withLoggingEnabled()
    else builder.withLoggingDisabled()
    return builder
  }

  const newStateDir = async (): Promise<string | undefined> => {
    const root = options.stateDirRoot ?? (options.persistent ? tmpdir() : undefined)
    if (root === undefined) return undefined
    await mkdir(root, { recursive: true })
    const dir = await mkdtemp(join(root, `kstreams-${storeName}-`))
    stateDirs.push(dir)
    return dir
  }

  const start = async (builder: KeyValueStoreBuilder<Buffer, Buffer>, context: TestStoreContext): Promise<BytesStore> => {
    const store = builder.build()
    await store.init(context, store)
    stores.set(store, { builder, context })
    return store
  }

  const entryOf = (store: BytesStore): OpenStore => {
    const entry = stores.get(store)
    if (entry === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${store.name}" was not opened by harness "${options.name}"`)
    return entry
  }

  return {
    name: options.name,
    persistent: options.persistent,
    async open () {
      const context = createTestStoreContext({ stateDir: await newStateDir(), config: { applicationId }, cache: options.newCache?.() })
      return await start(newBuilder(), context)
    },
    async reopen (store) {
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
      const context = createTestStoreContext({ stateDir: await newStateDir(), config: { applicationId }, cache: options.newCache?.() })
      const store = await start(newBuilder(), context)
      context.restore(storeName, records)
      return store
    }
  }
}
