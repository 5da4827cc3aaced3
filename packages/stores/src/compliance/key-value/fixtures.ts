/**
 * Small helpers shared by the key-value compliance modules: building keys and values as bytes,
 * draining (and closing) iterators into comparable strings.
 */
import { Serdes } from '@kstreams/core'
import type { KeyValue, KeyValueIterator, Serializer } from '@kstreams/core'
import type { BytesKeyValueStore } from './key-value-check.js'

/** Bytes from numbers: `b(0xff, 0x00)`. */
export function b(...bytes: number[]): Buffer {
  return Buffer.from(bytes)
}

/** UTF-8 bytes of a string. */
export function s(text: string): Buffer {
  return Buffer.from(text, 'utf8')
}

const integer = Serdes.Integer()
const integerSerializer = integer.serializer()
const integerDeserializer = integer.deserializer()

/** A number as Kafka's IntegerSerializer writes it: 4-byte big-endian two's complement. */
export function int32(n: number): Buffer {
  return integerSerializer.serialize('compliance', n)!
}

export function fromInt32(bytes: Buffer): number {
  return integerDeserializer.deserialize('compliance', bytes)!
}

/** Hands a Buffer prefix to prefixScan unchanged. */
export const bytesSerializer: Serializer<Buffer> = { serialize: (_topic, data) => data }

/** Reads every entry, then closes the iterator. */
export function drain(iterator: KeyValueIterator<Buffer, Buffer>): Array<KeyValue<Buffer, Buffer>> {
  try {
    const out: Array<KeyValue<Buffer, Buffer>> = []
    for (let next = iterator.next(); next.done !== true; next = iterator.next()) out.push(next.value)
    return out
  } finally {
    iterator.close()
  }
}

/** The keys as UTF-8 text, in iteration order. */
export function textKeys(iterator: KeyValueIterator<Buffer, Buffer>): string[] {
  return drain(iterator).map(kv => kv.key.toString('utf8'))
}

/** The keys as hex, in iteration order. */
export function hexKeys(iterator: KeyValueIterator<Buffer, Buffer>): string[] {
  return drain(iterator).map(kv => kv.key.toString('hex'))
}

/** `key=value` in UTF-8 text, in iteration order. */
export function textEntries(iterator: KeyValueIterator<Buffer, Buffer>): string[] {
  return drain(iterator).map(kv => `${kv.key.toString('utf8')}=${kv.value.toString('utf8')}`)
}

/** `key=value` in hex, in iteration order. */
export function hexEntries(iterator: KeyValueIterator<Buffer, Buffer>): string[] {
  return drain(iterator).map(kv => `${kv.key.toString('hex')}=${kv.value.toString('hex')}`)
}

/** Puts each `key: value` as UTF-8 bytes, in object order. */
export function putText(store: BytesKeyValueStore, entries: Record<string, string>): void {
  for (const [key, value] of Object.entries(entries)) store.put(s(key), s(value))
}

/** The value of a key as UTF-8 text, or null. */
export function getText(store: BytesKeyValueStore, key: string): string | null {
  const value = store.get(s(key))
  return value === null ? null : value.toString('utf8')
}
