/**
 * The answer of `KafkaStreams.query()` (Kafka Streams' `StateQueryResult`): one QueryResult per
 * store partition that answered (or failed), or a single global result for a global store.
 */
import { StreamsError } from '../../../errors.js'
import type { QueryResult } from './query-result.js'
import { Position } from './position.js'

/** The answer of KafkaStreams.query() (Kafka Streams' StateQueryResult): a QueryResult per store partition, or one for a global store. */
export class StateQueryResult<R> {
  readonly #partitionResults = new Map<number, QueryResult<R>>()
  #globalResult: QueryResult<R> | undefined

  /** Sets the result of a global store query (used by the runner; available to tests). */
  setGlobalResult(result: QueryResult<R>): void {
    this.#globalResult = result
  }

  /** Sets the result of one partition (used by the runner; available to tests). */
  addResult(partition: number, result: QueryResult<R>): void {
    this.#partitionResults.set(partition, result)
  }

  /** Per partition; empty for a global store. */
  get partitionResults(): ReadonlyMap<number, QueryResult<R>> {
    return this.#partitionResults
  }

  /** The global store's result; undefined for a partitioned store. */
  get globalResult(): QueryResult<R> | undefined {
    return this.#globalResult
  }

  /**
   * For a query that matches in at most one partition: the one successful result that is not
   * null, or undefined when there is none; ILLEGAL_ARGUMENT when several partitions have one.
   */
  onlyPartitionResult(): QueryResult<R> | undefined {
    const found = [...this.#partitionResults.values()].filter(r => r.isSuccess() && r.getResult() !== null && r.getResult() !== undefined)
    if (found.length > 1) throw new StreamsError('ILLEGAL_ARGUMENT', `The query answered in more than one partition (${found.length})`)
    return found[0]
  }

  /** The positions of every partition result (and the global one) merged: how far the answer has seen. */
  getPosition(): Position {
    let position = Position.emptyPosition()
    for (const r of [...this.#partitionResults.values(), ...(this.#globalResult === undefined ? [] : [this.#globalResult])])
      position = position.merge(r.getPosition())
    return position
  }

  /** Every result, for logs. */
  toString(): string {
    const parts = [...this.#partitionResults].map(([p, r]) => `${p}=${r.toString()}`).join(', ')
    return `StateQueryResult{partitionResults={${parts}}, globalResult=${String(this.#globalResult)}}`
  }
}
