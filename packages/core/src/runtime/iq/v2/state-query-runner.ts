/**
 * Runs `KafkaStreams.query()` (IQv2; Kafka Streams' KafkaStreams#query): checks the client
 * state and the store name, then hands the query to the local store of every requested
 * partition (`StateStore.query`, with the request's position bound and a QueryConfig; a store
 * without query() answers UNKNOWN_QUERY_TYPE). Under `requireActive()` the bound is not passed
 * on (unbounded), as in Kafka: a running active task is as current as any copy. Global
 * stores answer, as in Kafka Streams 4.x, with an UNKNOWN_QUERY_TYPE global result (KAFKA-13523:
 * use `store()` for them). Per partition: NOT_ACTIVE when `requireActive()` and the local copy is
 * a standby or not a RUNNING active task of a RUNNING thread; NOT_PRESENT for a requested
 * partition with no local task; DOES_NOT_EXIST when the store has no such partition at all.
 * @internal
 */
import { InvalidStateStoreError, StreamsError } from '../../../errors.js'
import type { StateStore } from '../../../state/state-store.js'
import type { GlobalStoreReads, QueryableThread } from '../queryable-store-provider.js'
import { QueryResult } from './query-result.js'
import { QueryConfig } from './query-config.js'
import { PositionBound } from './position.js'
import type { StateQueryRequest } from './state-query-request.js'
import { StateQueryResult } from './state-query-result.js'

export interface StateQueryRunnerOptions {
  readonly clientState: string
  /** The stream threads; `localStores(name, false)` = RUNNING active tasks, `(name, true)` = also restoring and standby. */
  readonly threads: readonly QueryableThread[]
  readonly globalStores: GlobalStoreReads
  /** Every store name of the topology (local and global). */
  readonly storeNames: ReadonlySet<string>
  /** Whether the store's partition exists in the cluster; undefined while unknown. */
  readonly partitionExists?: (storeName: string, partition: number) => boolean | undefined
}

const DEAD_THREAD = new Set(['PENDING_SHUTDOWN', 'DEAD'])

/** A partition already answered by another thread, unless only as NOT_ACTIVE (a running active copy wins). */
const answered = (r: QueryResult<unknown> | undefined): boolean =>
  r !== undefined && (r.isSuccess() || r.getFailureReason() !== 'NOT_ACTIVE')

function checkCanQuery(storeName: string, o: StateQueryRunnerOptions): void {
  if (!o.storeNames.has(storeName))
    throw new InvalidStateStoreError(
      'UNKNOWN_STATE_STORE',
      `Cannot query state store ${storeName}: no such store is registered in the topology`
    )
  if (o.clientState === 'CREATED')
    throw new InvalidStateStoreError(
      'STREAMS_NOT_STARTED',
      'KafkaStreams has not been started yet (state CREATED); start it before querying'
    )
  if (o.clientState !== 'RUNNING' && o.clientState !== 'REBALANCING') {
    throw new StreamsError('NOT_RUNNING', `KafkaStreams is stopped or stopping (state ${o.clientState}) and can no longer answer queries`)
  }
}

export function runStateQuery<R>(request: StateQueryRequest<R>, o: StateQueryRunnerOptions): StateQueryResult<R> {
  const storeName = request.storeName
  checkCanQuery(storeName, o)
  const result = new StateQueryResult<R>()
  if (o.globalStores.has(storeName)) {
    result.setGlobalResult(
      QueryResult.forFailure(
        'UNKNOWN_QUERY_TYPE',
        `${storeName} is a global store; global stores do not answer query() yet, read them through store()`
      )
    )
    return result
  }
  const wanted = (p: number): boolean => request.isAllPartitions || request.partitions.has(p)
  for (const thread of o.threads) {
    if (DEAD_THREAD.has(thread.state)) continue
    // A running active task's store, as listed for running tasks only: under requireActive it is
    // the one asked (a listing of every store, taken after, could show a copy that is no longer active).
    const running = new Map(thread.localStores(storeName, false).map(s => [s.partition, s.store]))
    for (const listed of thread.localStores(storeName, true)) {
      const { partition } = listed
      if (!wanted(partition) || answered(result.partitionResults.get(partition))) continue
      const active = running.get(partition)
      const store = request.isRequireActive ? active : listed.store
      if (request.isRequireActive && (thread.state !== 'RUNNING' || store === undefined)) {
        result.addResult(
          partition,
          QueryResult.forFailure(
            'NOT_ACTIVE',
            `Partition ${partition} of ${storeName} needs a RUNNING active task, but here it is ${active === undefined ? 'not a running active task' : 'active'} on a thread in state ${thread.state}`
          )
        )
        continue
      }
      result.addResult(partition, queryLocalStore(store!, request))
    }
  }
  if (!request.isAllPartitions) {
    for (const partition of request.partitions) {
      if (result.partitionResults.has(partition)) continue
      result.addResult(
        partition,
        o.partitionExists?.(storeName, partition) === false
          ? QueryResult.forFailure('DOES_NOT_EXIST', `Store ${storeName} has no partition ${partition}`)
          : QueryResult.forFailure(
              'NOT_PRESENT',
              `Partition ${partition} of ${storeName} is not hosted by this instance now; it may be on another instance`
            )
      )
    }
  }
  return result
}

/** The answer of one local store partition to the request (StateStore.query). */
export function queryLocalStore<R>(store: StateStore, request: StateQueryRequest<R>): QueryResult<R> {
  const bound = request.isRequireActive ? PositionBound.unbounded() : request.positionBound
  const config = new QueryConfig(request.executionInfoEnabled)
  // What the store throws goes to the caller, as in Kafka Streams (e.g. a versioned store asked a
  // KeyQuery); the store layers themselves turn their own failures into STORE_EXCEPTION.
  return store.query?.(request.query, bound, config) ?? QueryResult.forUnknownQueryType(request.query, store)
}
