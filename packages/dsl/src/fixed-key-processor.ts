/**
 * Processors that may change values but never keys (Kafka Streams' FixedKeyProcessor), run by
 * `KStream.processValues`. The context forwards every record under the key of the record being
 * processed, so the stream needs no repartition afterwards.
 */
import type { Processor, ProcessingContext, ProcessorContext, ProcessorSupplier, Record } from '@kstreams/core'

/** The context of a FixedKeyProcessor: forwards records under the input record's key. */
export interface FixedKeyProcessorContext<K, VForward> extends ProcessingContext {
  /** Sends the record, with the key of the input record, to all children or the named child. */
  forward(record: Record<K, VForward>, childName?: string): void
}

/** A processor that may change values but never keys (Kafka Streams' FixedKeyProcessor), run by KStream.processValues. */
export interface FixedKeyProcessor<K, VIn, VOut> {
  /** Called once before the first record, with the context to keep. */
  init?(context: FixedKeyProcessorContext<K, VOut>): void
  /** Processes one record, synchronously; forwards output through the context. */
  process(record: Record<K, VIn>): void
  /** Called when the task closes. */
  close?(): void
}

/** Returns a new fixed-key processor on every call (one per task). */
export type FixedKeyProcessorSupplier<K, VIn, VOut> = () => FixedKeyProcessor<K, VIn, VOut>

/** @internal Adapts a fixed-key processor to a Processor API processor. */
export function processValuesSupplier<K, VIn, VOut>(supplier: FixedKeyProcessorSupplier<K, VIn, VOut>): ProcessorSupplier<K, VIn, K, VOut> {
  return () => {
    const inner = supplier()
    let currentKey: K | undefined
    let hasKey = false
    const processor: Processor<K, VIn, K, VOut> = {
      init(context: ProcessorContext<K, VOut>) {
        const forward = (record: Record<K, VOut>, childName?: string): void => {
          context.forward(hasKey ? record.withKey(currentKey as K) : record, childName)
        }
        // Every other member is the runtime's own, called on the runtime's context.
        const fixed = new Proxy(context, {
          get(target, property) {
            if (property === 'forward') return forward
            const value: unknown = Reflect.get(target, property, target)
            return typeof value === 'function' ? value.bind(target) : value
          }
        }) as unknown as FixedKeyProcessorContext<K, VOut>
        inner.init?.(fixed)
      },
      process(record) {
        const previous = currentKey
        const hadKey = hasKey
        currentKey = record.key
        hasKey = true
        try {
          inner.process(record)
        } finally {
          currentKey = previous
          hasKey = hadKey
        }
      },
      close() {
        inner.close?.()
      }
    }
    return processor
  }
}
