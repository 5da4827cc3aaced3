/**
 * The typed iterator of the metered layer: wraps a bytes iterator from the layer below and
 * deserializes each key and value only when it is read. Closing it closes the inner iterator
 * and, once, ends the operation's sensor (Kafka times range/all/prefix-scan from open to close).
 */
import type { Sensor } from '../metrics/sensor.js'
import type { KeyValueIterator } from './key-value-store.js'
import { MeteredIteratorBase } from './metered-iterator-base.js'
import type { StateSerdes } from './state-serdes.js'

/** @internal */
export class MeteredKeyValueIterator<K, V> extends MeteredIteratorBase<Buffer, K, K, V> {
  #sensor: Sensor | undefined
  readonly #start: number

  /** `sensor` is ended on the first close with `start`, the value its start() returned. */
  constructor(inner: KeyValueIterator<Buffer, Buffer>, serdes: StateSerdes<K, V>, sensor?: Sensor, start = 0) {
    super(inner, serdes)
    this.#sensor = sensor
    this.#start = start
  }

  override close(): void {
    const sensor = this.#sensor
    this.#sensor = undefined
    try {
      super.close()
    } finally {
      sensor?.end(this.#start)
    }
  }

  protected typedKey(raw: Buffer, serdes: StateSerdes<K, V>): K {
    return serdes.keyFrom(raw)
  }
}
