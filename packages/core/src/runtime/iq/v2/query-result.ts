/**
 * The answer of one store partition (or of a global store) to an IQv2 query (Kafka Streams'
 * `QueryResult`): either the store's result or a failure reason with a message. Asking a
 * success for its failure, or a failure for its result, throws ILLEGAL_ARGUMENT.
 */
import { StreamsError } from '../../../errors.js'
import type { StateStore } from '../../../state/state-store.js'
import { Position, type PositionBound } from './position.js'

/** Why a partition did not answer (Kafka Streams' `FailureReason`). */
export type FailureReason =
  /** The store does not know this kind of query. */
  | 'UNKNOWN_QUERY_TYPE'
  /** `requireActive()` was set but the local copy is a standby or not a RUNNING active task. */
  | 'NOT_ACTIVE'
  /** The store has not yet seen the input up to the request's position bound. */
  | 'NOT_UP_TO_BOUND'
  /** This instance has no task for the partition (it may have moved to another instance). */
  | 'NOT_PRESENT'
  /** The store has no such partition at all. */
  | 'DOES_NOT_EXIST'
  /** The store threw while answering; the message says what. */
  | 'STORE_EXCEPTION'

/** The answer of one store partition (or a global store) to a query (Kafka Streams' QueryResult): a result or a failure. */
export class QueryResult<R> {
  readonly #result: R | undefined
  readonly #reason: FailureReason | undefined
  readonly #message: string | undefined
  readonly #executionInfo: string[] = []
  #position: Position | undefined

  private constructor(result: R | undefined, reason: FailureReason | undefined, message: string | undefined) {
    this.#result = result
    this.#reason = reason
    this.#message = message
  }

  /** A successful answer. */
  static forResult<R>(result: R): QueryResult<R> {
    return new QueryResult<R>(result, undefined, undefined)
  }

  /** A failed answer, with why and a message. */
  static forFailure<R>(reason: FailureReason, message: string): QueryResult<R> {
    return new QueryResult<R>(undefined, reason, message)
  }

  /**
   * The NOT_UP_TO_BOUND failure of a store behind `bound` (Kafka's notUpToBound), carrying the
   * store's `current` position; `partition` undefined for a store not initialised yet.
   */
  static notUpToBound<R>(current: Position, bound: PositionBound, partition: number | undefined): QueryResult<R> {
    const result = QueryResult.forFailure<R>(
      'NOT_UP_TO_BOUND',
      partition === undefined
        ? `The store is not initialized yet, so it is not yet up to the bound ${bound.toString()}`
        : `For store partition ${partition}, the current position ${current.toString()} is not yet up to the bound ${bound.toString()}`
    )
    result.setPosition(current)
    return result
  }

  /**
   * The UNKNOWN_QUERY_TYPE failure of a store that does not know `query` (Kafka's
   * forUnknownQueryType). `store` is the store (its class and name are named) or a description;
   * `why` adds what the store does answer.
   */
  static forUnknownQueryType<R>(query: unknown, store: StateStore | string, why = ''): QueryResult<R> {
    const label = typeof store === 'string' ? store : `${store.constructor.name} of store ${store.name}`
    return QueryResult.forFailure(
      'UNKNOWN_QUERY_TYPE',
      `This store (${label}) doesn't know how to execute the given query (${describeQuery(query)})${why === '' ? '' : `: ${why}`}. Contact the store maintainer if you need support for a new query type.`
    )
  }

  /** Whether the partition answered. */
  isSuccess(): boolean {
    return this.#reason === undefined
  }

  /** Whether the partition failed to answer. */
  isFailure(): boolean {
    return this.#reason !== undefined
  }

  /** The result; ILLEGAL_ARGUMENT for a failure. */
  getResult(): R {
    if (this.#reason !== undefined)
      throw new StreamsError('ILLEGAL_ARGUMENT', `A failed query result has no result (${this.#reason}: ${this.#message ?? ''})`)
    return this.#result as R
  }

  /** The result, as getResult(). */
  get result(): R {
    return this.getResult()
  }

  /** Why the partition did not answer; ILLEGAL_ARGUMENT for a success. */
  getFailureReason(): FailureReason {
    if (this.#reason === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', 'A successful query result has no failure reason')
    return this.#reason
  }

  /** What went wrong; ILLEGAL_ARGUMENT for a success. */
  getFailureMessage(): string {
    if (this.#reason === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', 'A successful query result has no failure message')
    return this.#message ?? ''
  }

  /** The position of the store partition that answered (empty when it tracks none). */
  getPosition(): Position {
    return this.#position?.copy() ?? Position.emptyPosition()
  }

  /** Sets the position of the store that answered (a store's query() sets it; a copy is kept). */
  setPosition(position: Position): void {
    this.#position = position.copy()
  }

  /** What the layers that handled the query noted, when the request enabled execution info. */
  getExecutionInfo(): readonly string[] {
    return this.#executionInfo
  }

  /** Adds a line of execution info: what a layer that handled the query did (when QueryConfig.isCollectExecutionInfo()). */
  addExecutionInfo(line: string): void {
    this.#executionInfo.push(line)
  }

  /** The result or the failure, for logs. */
  toString(): string {
    return this.#reason === undefined
      ? `QueryResult{result=${String(this.#result)}}`
      : `QueryResult{failure=${this.#reason}, message=${this.#message ?? ''}}`
  }
}

/** A query for messages: its own toString(), else its class name. */
function describeQuery(query: unknown): string {
  if (query === null || typeof query !== 'object') return String(query)
  const text = String(query)
  return text === '[object Object]' ? query.constructor.name : text
}
