/** A key and a value, as Kafka Streams' `KeyValue`. */
export class KeyValue<K, V> {
  constructor(
    /** The key. */
    readonly key: K,
    /** The value. */
    readonly value: V
  ) {}

  /** A new KeyValue (Kafka Streams' `KeyValue.pair`). */
  static pair<K, V>(key: K, value: V): KeyValue<K, V> {
    return new KeyValue(key, value)
  }

  /** `KeyValue(key, value)`, as Kafka Streams prints it. */
  toString(): string {
    return `KeyValue(${String(this.key)}, ${String(this.value)})`
  }
}
