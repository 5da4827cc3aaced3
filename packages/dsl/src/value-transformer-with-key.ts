/**
 * Stateful value transformers (Kafka Streams' ValueTransformerWithKey), run by
 * `KTable.transformValues` on each table update. A transformer may read and write the state
 * stores connected to it, but never forwards: the context it is given has no `forward`, and
 * calling one anyway (through a cast, or from a punctuator it scheduled) throws an
 * ILLEGAL_STATE StreamsError, as Kafka's ForwardingDisabledProcessorContext throws.
 */
import type { ProcessingContext } from '@kstreams/core'

/** Transforms the value of each table update, given the (read-only) key (Kafka Streams' ValueTransformerWithKey). */
export interface ValueTransformerWithKey<K, V, VR> {
  /**
   * Called once before the first transform, with a context that gives access to the connected
   * stores and to schedule(), but cannot forward.
   */
  init?(context: ProcessingContext): void
  /**
   * The new value for `value`, which is null for a delete (and for a missing old value): the
   * transformer sees deletes, and a null result deletes. Must not change `readOnlyKey`.
   */
  transform(readOnlyKey: K, value: V | null): VR | null
  /** Called when the task closes (or a view's getter is closed); release what init acquired. */
  close?(): void
}

/** Returns a new transformer on every call: one per task, and one per reader of the table's view (Kafka Streams' ValueTransformerWithKeySupplier). */
export type ValueTransformerWithKeySupplier<K, V, VR> = () => ValueTransformerWithKey<K, V, VR>
