/**
 * Finds the local stores an interactive query may read (Kafka Streams' QueryableStoreProvider,
 * WrappingStoreProvider and StreamThreadStateStoreProvider in one): global stores as they are;
 * otherwise the stores of the RUNNING active tasks of every live stream thread, or, with stale
 * stores enabled, also of restoring, suspended and standby tasks. While the client or a thread
 * is rebalancing a query fails with the retriable STREAMS_REBALANCING instead of reading a
 * store that may be about to move. @internal
 */
import { InvalidStateStoreError, type StreamsError } from '../../errors.js'
import type { StateStore } from '../../state/state-store.js'
import type { QueryableStoreType } from './queryable-store-types.js'
import { storeMigratedError, type StateStoreProvider } from './state-store-provider.js'

/** What `KafkaStreams.store()` is asked (Kafka Streams' StoreQueryParameters). */
export interface StoreQueryParameters<T> {
  /** The store to query. */
  readonly storeName: string
  /** Which kind of store, and so which read-only view you get (see QueryableStoreTypes). */
  readonly queryableStoreType: QueryableStoreType<T>
  /** Query only the store of this partition. */
  readonly partition?: number
  /** Also read restoring and standby stores (values may be behind the active task's). */
  readonly enableStaleStores?: boolean
}

/** One local store of a task. */
export interface LocalTaskStore {
  readonly partition: number
  readonly store: StateStore
}

/** What the provider needs of a stream thread. */
export interface QueryableThread {
  readonly state: string
  /** The thread's stores named `storeName`: running active tasks, plus restoring and standby ones when `stale`. */
  localStores(storeName: string, stale: boolean): LocalTaskStore[]
}

/** The global stores a query may read, by name (a worker's copy is asked for again at every query). */
export type GlobalStoreReads = Pick<ReadonlyMap<string, StateStore>, 'get' | 'has'>

export interface QueryableStoreProviderOptions {
  readonly clientState: () => string
  readonly threads: () => readonly QueryableThread[]
  readonly globalStores: GlobalStoreReads
  /** Every store name of the topology (local and global). */
  readonly storeNames: ReadonlySet<string>
  /** Whether the store's partition exists in the cluster; undefined while unknown. */
  readonly partitionExists?: (storeName: string, partition: number) => boolean | undefined
}

const DEAD_THREAD = new Set(['PENDING_SHUTDOWN', 'DEAD'])

export class QueryableStoreProvider {
  readonly #o: QueryableStoreProviderOptions

  constructor(options: QueryableStoreProviderOptions) {
    this.#o = options
  }

  getStore<T>(params: StoreQueryParameters<T>): T {
    this.#checkClientState()
    const { storeName, queryableStoreType: type } = params
    if (!this.#o.storeNames.has(storeName)) {
      throw new InvalidStateStoreError(
        'UNKNOWN_STATE_STORE',
        `Cannot get state store ${storeName} because no such store is registered in the topology`
      )
    }
    const global = this.#o.globalStores.get(storeName)
    if (global !== undefined) {
      this.#checkType(type, global, storeName)
      return type.create({
        storeName,
        stores: () => {
          this.#checkClientState()
          return [this.#o.globalStores.get(storeName) ?? global]
        }
      })
    }
    const provider: StateStoreProvider<StateStore> = { storeName, stores: () => this.#localStores(params) }
    return type.create(provider)
  }

  #checkClientState(): void {
    const state = this.#o.clientState()
    if (state === 'CREATED')
      throw new InvalidStateStoreError(
        'STREAMS_NOT_STARTED',
        'KafkaStreams has not been started yet (state CREATED); start it before querying its stores'
      )
    if (state !== 'RUNNING' && state !== 'REBALANCING')
      throw new InvalidStateStoreError('NOT_RUNNING', `KafkaStreams is not running (state ${state})`)
  }

  #checkType<T>(type: QueryableStoreType<T>, store: StateStore, storeName: string): void {
    if (!type.accepts(store))
      throw new InvalidStateStoreError(
        'ILLEGAL_ARGUMENT',
        `Cannot get state store ${storeName}: the queryable store type ${type.kind} does not accept the actual store type`
      )
  }

  #localStores<T>(params: StoreQueryParameters<T>): StateStore[] {
    this.#checkClientState()
    const { storeName, partition } = params
    const stale = params.enableStaleStores === true
    if (!stale && this.#o.clientState() === 'REBALANCING') throw rebalancing(storeName)
    const found: LocalTaskStore[] = []
    for (const thread of this.#o.threads()) {
      if (DEAD_THREAD.has(thread.state)) continue
      if (!stale && thread.state !== 'RUNNING') throw rebalancing(storeName)
      for (const s of thread.localStores(storeName, stale)) if (partition === undefined || s.partition === partition) found.push(s)
    }
    if (found.length === 0) {
      if (partition !== undefined && this.#o.partitionExists?.(storeName, partition) === false) {
        throw new InvalidStateStoreError(
          'INVALID_STATE_STORE_PARTITION',
          `The specified partition ${partition} for store ${storeName} does not exist`
        )
      }
      throw storeMigratedError(storeName)
    }
    found.sort((a, b) => a.partition - b.partition)
    for (const s of found) this.#checkType(params.queryableStoreType, s.store, storeName)
    return found.map(s => s.store)
  }
}

function rebalancing(storeName: string): StreamsError {
  return new InvalidStateStoreError(
    'STREAMS_REBALANCING',
    `Cannot get state store ${storeName}: KafkaStreams is rebalancing; retry when it is RUNNING again`,
    { retriable: true }
  )
}
