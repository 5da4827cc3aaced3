/**
 * Runs a forward with a buffered record's context as the current one (Kafka Streams' buffers set
 * the processor context's record context around an emit and restore it after), when the context
 * is the runtime's (it has runAs and currentNode, as Kafka's InternalProcessorContext); any other
 * context (a mock) just runs the function. @internal
 */
import type { BufferedRecordContext } from './suppress/buffer-value.js'

/** The runtime's context as seen by the DSL (as Kafka's InternalProcessorContext). */
interface InternalContext {
  readonly currentNode: unknown
  runAs<T>(node: unknown, recordContext: BufferedRecordContext, fn: () => T): T
}

/** Runs `fn` as the current node with `recordContext` as the record context. */
export function withRecordContext<T>(context: unknown, recordContext: BufferedRecordContext, fn: () => T): T {
  if (!isInternalContext(context)) return fn()
  return context.runAs(context.currentNode, recordContext, fn)
}

function isInternalContext(context: unknown): context is InternalContext {
  return (
    typeof context === 'object' &&
    context !== null &&
    typeof (context as Partial<InternalContext>).runAs === 'function' &&
    'currentNode' in context
  )
}
