/**
 * The execution info lines store layers add to a query's result when the request asked for them
 * (Kafka's "Handled in <class> in <n>ns"): a timer started before the layer handles the query,
 * and the line with the time it took. @internal
 */
import type { QueryConfig } from './query-config.js'
import type { QueryResult } from './query-result.js'

/** The time the layer started on the query; 0 when no execution info is collected. */
export function startQueryTimer(config: QueryConfig): bigint {
  return config.isCollectExecutionInfo() ? process.hrtime.bigint() : 0n
}

/** Adds `what` with the time since `started` to `result`, when the request collects execution info. */
export function noteQueryExecution(result: QueryResult<unknown>, config: QueryConfig, started: bigint, what: string): void {
  if (config.isCollectExecutionInfo()) result.addExecutionInfo(`${what} in ${process.hrtime.bigint() - started}ns`)
}
