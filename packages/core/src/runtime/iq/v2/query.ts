/**
 * The contract every IQv2 query implements (Kafka Streams' `Query<R>`): a marker carrying the
 * type of the result a store answers with, so `StateQueryRequest.withQuery(q)` knows `R`.
 */

/** Type-level key of a query's result type; never set on an object. */
export const QUERY_RESULT: unique symbol = Symbol('kstreams.queryResult')

/** A query whose answer, per store partition, is an `R`. */
export interface Query<R> {
  /** The type of the result, for the compiler only; never set. */
  readonly [QUERY_RESULT]?: R
}
