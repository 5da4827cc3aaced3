/**
 * Per-query settings a store is handed with each IQv2 query (Kafka Streams' `QueryConfig`):
 * whether the layers that handle it note what they did in the result's execution info.
 */

/** What a store is told about one query besides the query itself (Kafka Streams' QueryConfig). */
export class QueryConfig {
  readonly #collectExecutionInfo: boolean

  constructor(collectExecutionInfo: boolean) {
    this.#collectExecutionInfo = collectExecutionInfo
  }

  /** Whether each layer that handles the query should add a line to `QueryResult.getExecutionInfo()`. */
  isCollectExecutionInfo(): boolean {
    return this.#collectExecutionInfo
  }

  /** The settings, for logs. */
  toString(): string {
    return `QueryConfig{collectExecutionInfo=${String(this.#collectExecutionInfo)}}`
  }
}
