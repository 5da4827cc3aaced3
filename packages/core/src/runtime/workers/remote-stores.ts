/**
 * Interactive queries of the stores of a stream thread on a worker thread. On the main thread a
 * worker's task stores appear as stand-ins that have the read methods of the store they stand
 * for (get, range, all, fetch, findSessions, query, ...); each call runs synchronously on the
 * worker (sync-calls.ts) against the store of the same name and partition, and its answer
 * crosses back through wire-values.ts (iterators read to their end). Only read methods are
 * answered. The composite views of `KafkaStreams.store()` and the IQv2 runner use these
 * stand-ins as they use a thread's own stores, asking the worker again for the list of stores on
 * every query. @internal
 */
import { StreamsError } from '../../errors.js'
import type { Serializer } from '../../serialization/serde.js'
import type { StateStore } from '../../state/state-store.js'
import type { LocalTaskStore } from '../iq/queryable-store-provider.js'
import { TIMESTAMPED_KIND, timestampedKind } from '../iq/queryable-store-types.js'
import { guardStoreCall, storeMigratedError } from '../iq/state-store-provider.js'
import type { SyncCaller } from './sync-calls.js'

/** The methods a query may call: the read methods of every store kind, and IQv2's query. */
const READ_METHODS = new Set([
  'get',
  'range',
  'reverseRange',
  'all',
  'reverseAll',
  'prefixScan',
  'approximateNumEntries',
  'fetch',
  'backwardFetch',
  'fetchAll',
  'backwardFetchAll',
  'backwardAll',
  'findSessions',
  'backwardFindSessions',
  'fetchSession',
  'query'
])

export type StoreRequest =
  | { readonly op: 'list'; readonly storeName: string; readonly stale: boolean; readonly global: boolean }
  | {
      readonly op: 'call'
      readonly storeName: string
      readonly stale: boolean
      readonly global: boolean
      readonly partition: number
      readonly method: string
      readonly args: unknown[]
    }

interface StoreListing {
  readonly partition: number
  readonly persistent: boolean
  readonly methods: string[]
  readonly timestamped: ReturnType<typeof timestampedKind>
}

/** A prefix the main thread already serialized. */
const RAW_PREFIX: Serializer<Buffer> = { serialize: (_topic, prefix) => prefix }

/**
 * On the worker: the answer to `request` from the thread's stores (`stores(name, stale, false)`, as
 * TaskManager.queryableStores) or its copy of a global store (`stores(name, stale, true)`, partition -1).
 */
export function answerStoreRequest(
  stores: (storeName: string, stale: boolean, global: boolean) => LocalTaskStore[],
  request: StoreRequest
): unknown {
  const found = stores(request.storeName, request.stale, request.global)
  if (request.op === 'list') {
    return found.map(
      ({ partition, store }): StoreListing => ({
        partition,
        persistent: store.persistent,
        methods: [...READ_METHODS].filter(m => typeof (store as unknown as Record<string, unknown>)[m] === 'function'),
        timestamped: timestampedKind(store)
      })
    )
  }
  const { storeName, method, args } = request
  if (!READ_METHODS.has(method))
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": ${method} is not a read method an interactive query may call`)
  const store = found.find(s => s.partition === request.partition)?.store as unknown as Record<string, (...a: unknown[]) => unknown>
  if (store === undefined) throw storeMigratedError(storeName)
  return guardStoreCall(storeName, () => (method === 'prefixScan' ? store.prefixScan!(args[0], RAW_PREFIX) : store[method]!(...args)))
}

export interface RemoteStoresOptions {
  readonly caller: SyncCaller
  /** How long a call may wait for the worker, ms. */
  readonly timeoutMs: number
  /** The topic a prefix is serialized for (the store's changelog topic). */
  readonly prefixTopic: (storeName: string) => string
}

/**
 * On the main thread: the worker's stores named `storeName` (of running active tasks; also
 * restoring and standby when `stale`), or its copy of the global store `storeName` (`global`).
 */
export function remoteStores(o: RemoteStoresOptions, storeName: string, stale: boolean, global: boolean): LocalTaskStore[] {
  const listings = o.caller.call({ op: 'list', storeName, stale, global } satisfies StoreRequest, o.timeoutMs) as StoreListing[]
  return listings.map(listing => ({ partition: listing.partition, store: remoteStore(o, storeName, stale, global, listing) }))
}

function remoteStore(o: RemoteStoresOptions, storeName: string, stale: boolean, global: boolean, listing: StoreListing): StateStore {
  const { partition } = listing
  const call = (method: string, args: unknown[]): unknown =>
    o.caller.call({ op: 'call', storeName, stale, global, partition, method, args } satisfies StoreRequest, o.timeoutMs)
  const readOnly = (): never => {
    throw new StreamsError('ILLEGAL_STATE', `Store "${storeName}" (partition ${partition}) is read here through a query; its task owns it`)
  }
  const store: Record<string | symbol, unknown> = {
    name: storeName,
    persistent: listing.persistent,
    init: readOnly,
    flush: readOnly,
    close: readOnly,
    isOpen: () => true,
    [TIMESTAMPED_KIND]: listing.timestamped,
    toString: () => `${storeName} (partition ${partition}, on a worker thread)`
  }
  for (const method of listing.methods) store[method] = (...args: unknown[]) => call(method, args)
  if (listing.methods.includes('prefixScan')) {
    store.prefixScan = (prefix: unknown, serializer: Serializer<unknown>) => {
      if (prefix === null || prefix === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": prefix cannot be null`)
      if (serializer === null || serializer === undefined)
        throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": prefixKeySerializer cannot be null`)
      return call('prefixScan', [serializer.serialize(o.prefixTopic(storeName), prefix)])
    }
  }
  return store as unknown as StateStore
}
