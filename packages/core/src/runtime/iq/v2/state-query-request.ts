/**
 * What `KafkaStreams.query()` is asked (Kafka Streams' `StateQueryRequest`): a store name, one
 * query, which partitions (all by default), whether only RUNNING active tasks may answer, and
 * whether to collect execution info. Immutable: every `with...` returns a new request.
 *
 *   StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a')).withPartitions([0, 1])
 */
import { StreamsError } from '../../../errors.js'
import type { Query } from './query.js'
import { PositionBound } from './position.js'

interface RequestFields<R> {
  readonly storeName: string
  readonly query: Query<R>
  readonly partitions: ReadonlySet<number> | undefined
  readonly requireActive: boolean
  readonly executionInfo: boolean
  readonly positionBound: PositionBound
}

/** The first step of building a request: the store is chosen, the query not yet. */
export interface InStore {
  /** The store chosen. */
  readonly storeName: string
  /** The request of `query` to the store. */
  withQuery<R>(query: Query<R>): StateQueryRequest<R>
}

/** What KafkaStreams.query() is asked (Kafka Streams' StateQueryRequest): a store, a query, which partitions. Immutable. */
export class StateQueryRequest<R> {
  readonly #f: RequestFields<R>

  private constructor(fields: RequestFields<R>) {
    this.#f = fields
  }

  /** Starts a request to the store named `storeName`; give the query with `withQuery`. */
  static inStore(storeName: string): InStore {
    return {
      storeName,
      withQuery: <R>(query: Query<R>) =>
        new StateQueryRequest<R>({
          storeName,
          query,
          partitions: undefined,
          requireActive: false,
          executionInfo: false,
          positionBound: PositionBound.unbounded()
        })
    }
  }

  /** Query every local partition of the store (the default). */
  withAllPartitions(): StateQueryRequest<R> {
    return new StateQueryRequest({ ...this.#f, partitions: undefined })
  }

  /** Query only these partitions; each one this instance lacks answers NOT_PRESENT. */
  withPartitions(partitions: Iterable<number>): StateQueryRequest<R> {
    return new StateQueryRequest({ ...this.#f, partitions: new Set(partitions) })
  }

  /** Only RUNNING active tasks answer; standbys and restoring tasks answer NOT_ACTIVE. */
  requireActive(): StateQueryRequest<R> {
    return new StateQueryRequest({ ...this.#f, requireActive: true })
  }

  /** Only store partitions that have seen their input up to `bound` answer; the others answer NOT_UP_TO_BOUND. */
  withPositionBound(bound: PositionBound): StateQueryRequest<R> {
    return new StateQueryRequest({ ...this.#f, positionBound: bound })
  }

  /** How far a store partition must be to answer (unbounded by default). */
  get positionBound(): PositionBound {
    return this.#f.positionBound
  }

  /** Asks the layers that handle the query to note what they did (QueryResult.getExecutionInfo()). */
  enableExecutionInfo(): StateQueryRequest<R> {
    return new StateQueryRequest({ ...this.#f, executionInfo: true })
  }

  /** The store queried. */
  get storeName(): string {
    return this.#f.storeName
  }

  /** The query. */
  get query(): Query<R> {
    return this.#f.query
  }

  /** Whether every local partition is queried. */
  get isAllPartitions(): boolean {
    return this.#f.partitions === undefined
  }

  /** The requested partitions; ILLEGAL_ARGUMENT when the request is for all partitions. */
  get partitions(): ReadonlySet<number> {
    if (this.#f.partitions === undefined)
      throw new StreamsError('ILLEGAL_ARGUMENT', 'The request is for all partitions; check isAllPartitions first')
    return this.#f.partitions
  }

  /** Whether only RUNNING active tasks answer. */
  get isRequireActive(): boolean {
    return this.#f.requireActive
  }

  /** Whether execution info is collected. */
  get executionInfoEnabled(): boolean {
    return this.#f.executionInfo
  }

  /** The request, for logs. */
  toString(): string {
    const parts = this.#f.partitions === undefined ? 'all' : [...this.#f.partitions].join(',')
    return `StateQueryRequest{store=${this.#f.storeName}, query=${String(this.#f.query)}, partitions=${parts}, requireActive=${String(this.#f.requireActive)}}`
  }
}
