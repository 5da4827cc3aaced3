/** Tiny serdes for the state tests, independent of the built-in Serdes. */
import type { Deserializer, Serde, Serializer } from '../../../src/serialization/serde.js'

export const stringSerde: Serde<string> = {
  serializer: () => ({ serialize: (_topic, data) => (data === null ? null : Buffer.from(data, 'utf8')) }),
  deserializer: () => ({ deserialize: (_topic, data) => (data === null ? null : data.toString('utf8')) })
}

/** 4-byte big-endian two's complement, like Kafka's IntegerSerializer. */
export const intSerde: Serde<number> = {
  serializer: () => ({
    serialize: (_topic, data) => {
      if (data === null) return null
      const out = Buffer.alloc(4)
      out.writeInt32BE(data)
      return out
    }
  }),
  deserializer: () => ({ deserialize: (_topic, data) => (data === null ? null : data.readInt32BE(0)) })
}

export const stringSerializer: Serializer<string> = stringSerde.serializer()

/** Wraps a serde and records every topic its serializer and deserializer were called with. */
export class RecordingSerde<T> implements Serde<T> {
  readonly serializeTopics: string[] = []
  readonly deserializeTopics: string[] = []
  deserializeCount = 0
  readonly #inner: Serde<T>

  constructor(inner: Serde<T>) {
    this.#inner = inner
  }

  serializer(): Serializer<T> {
    const inner = this.#inner.serializer()
    return {
      serialize: (topic, data) => {
        this.serializeTopics.push(topic)
        return inner.serialize(topic, data)
      }
    }
  }

  deserializer(): Deserializer<T> {
    const inner = this.#inner.deserializer()
    return {
      deserialize: (topic, data) => {
        this.deserializeTopics.push(topic)
        this.deserializeCount++
        return inner.deserialize(topic, data)
      }
    }
  }
}

/** A serde whose serializer and deserializer always throw. */
export const throwingSerde: Serde<string> = {
  serializer: () => ({
    serialize: () => {
      throw new TypeError('boom')
    }
  }),
  deserializer: () => ({
    deserialize: () => {
      throw new TypeError('boom')
    }
  })
}
