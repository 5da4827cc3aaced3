/**
 * What the bytes layers between the metered layer and the backend share (the caching and
 * change-logging layers, Kafka's WrappedStateStore): the store below, whose name, persistence,
 * open state, position and IQv2 answers are the layer's, exposed as `wrapped`. @internal
 */
import type { StateStore } from './state-store.js'
import { Position, type PositionBound } from '../runtime/iq/v2/position.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { QueryConfig } from '../runtime/iq/v2/query-config.js'
import { QueryResult } from '../runtime/iq/v2/query-result.js'
import { noteQueryExecution, startQueryTimer } from '../runtime/iq/v2/execution-info.js'

export abstract class WrappedStoreLayer<S extends StateStore> {
  readonly #inner: S

  constructor(inner: S) {
    this.#inner = inner
  }

  get name(): string {
    return this.#inner.name
  }
  get persistent(): boolean {
    return this.#inner.persistent
  }

  /** The layer below (caching, change-logging or the backend). */
  get wrapped(): S {
    return this.#inner
  }

  isOpen(): boolean {
    return this.#inner.isOpen()
  }

  async whenClosed(): Promise<void> {
    await this.#inner.whenClosed?.()
  }

  /** Hands the query to the store below (UNKNOWN_QUERY_TYPE when it answers no queries), as Kafka's WrappedStateStore. */
  query<R>(query: Query<R>, positionBound: PositionBound, config: QueryConfig): QueryResult<R> {
    const started = startQueryTimer(config)
    const result = this.#inner.query?.(query, positionBound, config) ?? QueryResult.forUnknownQueryType<R>(query, this.#inner)
    noteQueryExecution(result, config, started, `Handled in ${this.constructor.name} via WrappedStateStore`)
    return result
  }

  /** The position of the store below (empty when it tracks none). */
  getPosition(): Position {
    return this.#inner.getPosition?.() ?? Position.emptyPosition()
  }

  /** The layer below. */
  protected get inner(): S {
    return this.#inner
  }
}
