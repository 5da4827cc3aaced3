/**
 * The typed iterator of a window store fetch for one key (Kafka's MeteredWindowStoreIterator):
 * keys are window start timestamps and pass through; each value is deserialized when it is read.
 * Closing it closes the inner iterator.
 */
import { MeteredIteratorBase } from './metered-iterator-base.js'
import type { WindowStoreIterator } from './window-store.js'

/** @internal */
export class MeteredWindowStoreIterator<V> extends MeteredIteratorBase<number, number, unknown, V> implements WindowStoreIterator<V> {
  protected typedKey(raw: number): number {
    return raw
  }
}
