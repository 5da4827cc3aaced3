/**
 * A base class for processors that keep their context (Kafka Streams' ContextualProcessor):
 * init() stores the context, context() returns it. Subclasses implement process() and may
 * override init() (calling super.init(context)) and close().
 */
import { IllegalStateError } from '../errors.js'
import type { Record } from '../record.js'
import type { Processor, ProcessorContext } from './api.js'

/** A Processor that keeps the context init() was given (Kafka Streams' ContextualProcessor). */
export abstract class ContextualProcessor<KIn, VIn, KOut = never, VOut = never> implements Processor<KIn, VIn, KOut, VOut> {
  #context: ProcessorContext<KOut, VOut> | undefined

  /** Keeps `context` for context(); a subclass that overrides init() calls super.init(context). */
  init(context: ProcessorContext<KOut, VOut>): void {
    this.#context = context
  }

  /** The context init() was given; an IllegalStateError before init(). */
  protected context(): ProcessorContext<KOut, VOut> {
    if (this.#context === undefined) {
      throw new IllegalStateError(`${this.constructor.name}.context() was called before init(): the processor has no context yet`)
    }
    return this.#context
  }

  /** Processes one record, synchronously; forwards output through context(). */
  abstract process(record: Record<KIn, VIn>): void
}
