/**
 * The typed iterator over windowed keys (Kafka's MeteredWindowedKeyValueIterator), shared by
 * window and session stores: turns `Windowed<Buffer>` keys into `Windowed<K>` (same window) and
 * deserializes values, each only when it is read. Closing it closes the inner iterator.
 */
import { MeteredIteratorBase } from './metered-iterator-base.js'
import type { StateSerdes } from './state-serdes.js'
import { Windowed } from './windowed.js'

/** @internal */
export class MeteredWindowedKeyValueIterator<K, V> extends MeteredIteratorBase<Windowed<Buffer>, Windowed<K>, K, V> {
  protected typedKey(raw: Windowed<Buffer>, serdes: StateSerdes<K, V>): Windowed<K> {
    return new Windowed(serdes.keyFrom(raw.key), raw.window)
  }
}
