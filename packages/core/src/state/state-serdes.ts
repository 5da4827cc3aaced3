/**
 * The serdes of one store (Kafka's StateSerdes): turns typed keys and values into the bytes the
 * layers below the metered store work on, and back, using the store's changelog topic as the topic
 * the serializers see. What a user serde throws is wrapped in a SerializationError naming the store.
 */
import { SerializationError, StreamsError } from '../errors.js'
import type { Deserializer, Serde, Serializer } from '../serialization/serde.js'

export class StateSerdes<K, V> {
  /** The topic passed to the serializers: the store's changelog topic. */
  readonly topic: string
  readonly storeName: string
  readonly #keySerializer: Serializer<K>
  readonly #keyDeserializer: Deserializer<K>
  readonly #valueSerializer: Serializer<V>
  readonly #valueDeserializer: Deserializer<V>

  constructor(storeName: string, topic: string, keySerde: Serde<K>, valueSerde: Serde<V>) {
    this.storeName = storeName
    this.topic = topic
    this.#keySerializer = keySerde.serializer()
    this.#keyDeserializer = keySerde.deserializer()
    this.#valueSerializer = valueSerde.serializer()
    this.#valueDeserializer = valueSerde.deserializer()
  }

  /** Kafka Streams' changelog topic name for a store. */
  static changelogTopic(applicationId: string, storeName: string): string {
    return `${applicationId}-${storeName}-changelog`
  }

  /** Serializes a key; a key must not be null, nor serialize to null. */
  rawKey(key: K): Buffer {
    if (key === null || key === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.storeName}": key cannot be null`)
    }
    let raw: Buffer | null
    try {
      raw = this.#keySerializer.serialize(this.topic, key)
    } catch (err) {
      throw this.#wrap(err, 'serialize a key')
    }
    if (raw === null || raw === undefined) {
      throw new SerializationError(`Store "${this.storeName}": the key serializer returned null for a non-null key (topic "${this.topic}")`)
    }
    return raw
  }

  /** Serializes a value; null stays null. */
  rawValue(value: V | null): Buffer | null {
    if (value === null || value === undefined) return null
    try {
      return this.#valueSerializer.serialize(this.topic, value) ?? null
    } catch (err) {
      throw this.#wrap(err, 'serialize a value')
    }
  }

  /** Serializes something with a caller-provided serializer (prefix scans), on the store's topic. */
  rawWith<P>(serializer: Serializer<P>, data: P, what: string): Buffer {
    let raw: Buffer | null
    try {
      raw = serializer.serialize(this.topic, data)
    } catch (err) {
      throw this.#wrap(err, `serialize ${what}`)
    }
    if (raw === null || raw === undefined) {
      throw new SerializationError(`Store "${this.storeName}": ${what} serialized to null (topic "${this.topic}")`)
    }
    return raw
  }

  keyFrom(raw: Buffer): K {
    try {
      return this.#keyDeserializer.deserialize(this.topic, raw) as K
    } catch (err) {
      throw this.#wrap(err, 'deserialize a key')
    }
  }

  /** Deserializes a value; null stays null. */
  valueFrom(raw: Buffer | null): V | null {
    if (raw === null) return null
    try {
      return this.#valueDeserializer.deserialize(this.topic, raw)
    } catch (err) {
      throw this.#wrap(err, 'deserialize a value')
    }
  }

  #wrap(err: unknown, what: string): StreamsError {
    if (err instanceof StreamsError) return err
    return new SerializationError(`Store "${this.storeName}": failed to ${what} (topic "${this.topic}")`, { cause: err })
  }
}
