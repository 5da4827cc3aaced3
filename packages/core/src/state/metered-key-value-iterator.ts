/**
 * The typed iterator of the metered layer: wraps a bytes iterator from the layer below and
 * deserializes each key and value only when it is read. Closing it closes the inner iterator
 * and, once, ends the operation's sensor (Kafka times range/all/prefix-scan from open to close).
 */
import { KeyValue } from '../key-value.js'
import type { Sensor } from '../metrics/sensor.js'
import type { KeyValueIterator } from './key-value-store.js'
import type { StateSerdes } from './state-serdes.js'

/** @internal */
export class MeteredKeyValueIterator<K, V> implements KeyValueIterator<K, V> {
  readonly #inner: KeyValueIterator<Buffer, Buffer>
  readonly #serdes: StateSerdes<K, V>
  #sensor: Sensor | undefined
  readonly #start: number

  /** `sensor` is ended on the first close with `start`, the value its start() returned. */
  constructor (inner: KeyValueIterator<Buffer, Buffer>, serdes: StateSerdes<K, V>, sensor?: Sensor, start = 0) {
    this.#inner = inner
    this.#serdes = serdes
    this.#sensor = sensor
    this.#start = start
  }

  next (): IteratorResult<KeyValue<K, V>, undefined> {
    const result = this.#inner.next()
    if (result.done === true) return { done: true, value: undefined }
    const serdes = this.#serdes
    const entry = result.value
    return { done: false, value: new KeyValue(serdes.keyFrom(entry.key), serdes.valueFrom(entry.value) as V) }
  }

  peekNextKey (): K | undefined {
    const raw = this.#inner.peekNextKey()
    return raw === undefined ? undefined : this.#serdes.keyFrom(raw)
  }

  close (): void {
    const sensor = this.#sensor
    this.#sensor = undefined
    try {
      this.#inner.close()
    } finally {
      sensor?.end(this.#start)
    }
  }

  /** Called when a `for...of` loop exits early: closes the iterator. */
  return (): IteratorResult<KeyValue<K, V>, undefined> {
    this.close()
    return { done: true, value: undefined }
  }

  [Symbol.iterator] (): this {
    return this
  }

  [Symbol.dispose] (): void {
    this.close()
  }
}
