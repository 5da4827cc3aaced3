/** A key and a value, as Kafka Streams' `KeyValue`. */
export class KeyValue<K, V> {
  constructor(
    readonly key: K,
    readonly value: V
  ) {}

  static pair<K, V>(key: K, value: V): KeyValue<K, V> {
    return new KeyValue(key, value)
  }

  toString(): string {
    return `KeyValue(${String(this.key)}, ${String(this.value)})`
  }
}
