/** Tiny serdes for the store tests, independent of the built-in Serdes. */
import type { Serde, Serializer } from '@kstreams/core'

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
