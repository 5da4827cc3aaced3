/**
 * A base class for fixed-key processors that keep their context (Kafka Streams'
 * ContextualFixedKeyProcessor): init() stores the context, context() returns it. Subclasses
 * implement process() and may override init() (calling super.init(context)) and close().
 */
import { IllegalStateError } from '@kstreams/core'
import type { Record } from '@kstreams/core'
import type { FixedKeyProcessor, FixedKeyProcessorContext } from './fixed-key-processor.js'

/** A FixedKeyProcessor that keeps the context init() was given (Kafka Streams' ContextualFixedKeyProcessor). */
export abstract class ContextualFixedKeyProcessor<K, VIn, VOut> implements FixedKeyProcessor<K, VIn, VOut> {
  #context: FixedKeyProcessorContext<K, VOut> | undefined

  /** Keeps `context` for context(); a subclass that overrides init() calls super.init(context). */
  init(context: FixedKeyProcessorContext<K, VOut>): void {
    this.#context = context
  }

  /** The context init() was given; an IllegalStateError before init(). */
  protected context(): FixedKeyProcessorContext<K, VOut> {
    if (this.#context === undefined) {
      throw new IllegalStateError(`${this.constructor.name}.context() was called before init(): the processor has no context yet`)
    }
    return this.#context
  }

  /** Processes one record, synchronously; forwards output through context(). */
  abstract process(record: Record<K, VIn>): void
}
