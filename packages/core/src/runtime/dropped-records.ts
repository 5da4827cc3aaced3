/**
 * Lets a processor count a record it drops (a late record of a windowed aggregation, a record
 * with a null key a join cannot use) in its task's `dropped-records-total` metric, as Kafka
 * Streams' DSL processors do through the task's dropped-records sensor. A no-op on contexts that
 * are not a task's (e.g. a MockProcessorContext). @internal
 */
import type { ProcessingContext } from '../processor/api.js'
import { ProcessorContextImpl } from './processor-context-impl.js'

export function recordDroppedRecord(context: ProcessingContext): void {
  if (context instanceof ProcessorContextImpl) context.recordDroppedRecord()
}
