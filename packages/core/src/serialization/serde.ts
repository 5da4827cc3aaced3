import type { Headers } from '../record.js'

/** Turns a value into bytes. `null` stays `null`. */
export interface Serializer<T> {
  /** The bytes of `data` for `topic`; may add headers. */
  serialize(topic: string, data: T | null, headers?: Headers): Buffer | null
}

/** Turns bytes into a value. `null` stays `null`. */
export interface Deserializer<T> {
  /** The value of `data` read from `topic`. */
  deserialize(topic: string, data: Buffer | null, headers?: Headers): T | null
}

/** A serializer and deserializer pair. */
export interface Serde<T> {
  /** The serializer. */
  serializer(): Serializer<T>
  /** The deserializer. */
  deserializer(): Deserializer<T>
}

/** A Serializer, or a Serde whose serializer is used. */
export type SerializerLike<T> = Serializer<T> | Serde<T>
/** A Deserializer, or a Serde whose deserializer is used. */
export type DeserializerLike<T> = Deserializer<T> | Serde<T>

/** Accepts a Serializer or a Serde wherever a serializer is taken. */
export function toSerializer<T>(s: SerializerLike<T>): Serializer<T>
export function toSerializer<T>(s: SerializerLike<T> | undefined): Serializer<T> | undefined
export function toSerializer<T>(s: SerializerLike<T> | undefined): Serializer<T> | undefined {
  if (s === undefined) return undefined
  return 'serialize' in s ? s : s.serializer()
}

/** Accepts a Deserializer or a Serde wherever a deserializer is taken. */
export function toDeserializer<T>(s: DeserializerLike<T>): Deserializer<T>
export function toDeserializer<T>(s: DeserializerLike<T> | undefined): Deserializer<T> | undefined
export function toDeserializer<T>(s: DeserializerLike<T> | undefined): Deserializer<T> | undefined {
  if (s === undefined) return undefined
  return 'deserialize' in s ? s : s.deserializer()
}
