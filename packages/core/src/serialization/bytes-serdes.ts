/**
 * Byte serdes: ByteArray (Uint8Array in, Buffer out, no copy), Buffer (pass-through) and Void
 * (Java VoidSerde: only null, both ways). Like Java's ByteArraySerde they hand over the same
 * memory, so callers must not mutate a value after serializing it.
 */
import type { Serde } from './serde.js'
import { invalidData } from './serde-errors.js'
import { serdeFrom } from './serde-from.js'

/** Java byte[]: accepts any Uint8Array (a Buffer is passed through; others are wrapped without copying). */
export function byteArraySerde(): Serde<Uint8Array> {
  return serdeFrom<Uint8Array>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (Buffer.isBuffer(data)) return data
        if (!(data instanceof Uint8Array)) throw invalidData('ByteArraySerializer', topic, data, 'not a Uint8Array')
        return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      }
    },
    {
      deserialize(_topic, data) {
        return data
      }
    }
  )
}

/** Node Buffer, passed through both ways. */
export function bufferSerde(): Serde<Buffer> {
  return serdeFrom<Buffer>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (!Buffer.isBuffer(data)) throw invalidData('BufferSerializer', topic, data, 'not a Buffer')
        return data
      }
    },
    {
      deserialize(_topic, data) {
        return data
      }
    }
  )
}

/**
 * Java Void: the value is always null. Serializing anything but null (or undefined) is an error;
 * deserializing any bytes, even an empty array, is an error, as in Java's VoidDeserializer.
 */
export function voidSerde(): Serde<null> {
  return serdeFrom<null>(
    {
      serialize(topic, data) {
        if (data != null) throw invalidData('VoidSerializer', topic, data, 'data should be null for a VoidSerializer')
        return null
      }
    },
    {
      deserialize(topic, data) {
        if (data !== null) throw invalidData('VoidDeserializer', topic, data, 'Data should be null for a VoidDeserializer.')
        return null
      }
    }
  )
}
