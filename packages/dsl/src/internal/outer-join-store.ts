/**
 * The shared store of a left/outer stream-stream join (Kafka Streams' outer-join ListValueStore):
 * records of either side still waiting for a match, kept until their join window closes. Keys
 * are Kafka's TimestampedKeyAndJoinSide bytes (8-byte big-endian timestamp, a side byte: 1 left,
 * 0 right, then the serialized key), so the store iterates by timestamp, then right before left,
 * then key bytes; values are LeftOrRightValue bytes (the side byte, then the serialized value).
 * Several values of one key are kept as a list (Kafka's ListSerde layout: strategy byte 1, an
 * int32 count, then int32 length + bytes per element). The list layer sits above change-logging,
 * so the changelog carries whole lists, as Kafka's ChangeLoggingListValueBytesStore does. @internal
 */
import { StreamsError } from '@kstreams/core'
import { KeyValueBackedStore } from './key-value-backed-store.js'

const VARIABLE_SIZE = 1

export interface OuterJoinEntry {
  readonly key: Buffer
  readonly value: Buffer
}

export class OuterJoinStore extends KeyValueBackedStore {
  /** Adds `value` to the values of `key`. */
  append(key: Buffer, value: Buffer): void {
    const old = this.inner.get(key)
    this.inner.put(key, encodeList(old === null ? [value] : [...decodeList(old), value]))
  }

  /** Removes every value of `key` (a blind delete). */
  delete(key: Buffer): void {
    this.inner.put(key, null)
  }

  /** Removes every value of `key` when it has any (Kafka's putIfAbsent(key, null)). */
  deleteIfPresent(key: Buffer): void {
    if (this.inner.get(key) !== null) this.inner.put(key, null)
  }

  /** Every value of every key, by key bytes; deleting keys already visited is allowed. */
  *entries(): Generator<OuterJoinEntry> {
    const iterator = this.inner.all()
    try {
      for (const kv of iterator) {
        if (kv.value === null) continue
        for (const value of decodeList(kv.value)) yield { key: kv.key, value }
      }
    } finally {
      iterator.close()
    }
  }
}

/** Kafka's TimestampedKeyAndJoinSide bytes. */
export function encodeJoinKey(timestamp: number, isLeftSide: boolean, keyBytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(9 + keyBytes.length)
  out.writeBigInt64BE(BigInt(timestamp), 0)
  out.writeUInt8(isLeftSide ? 1 : 0, 8)
  keyBytes.copy(out, 9)
  return out
}

export function decodeJoinKey(bytes: Buffer): { timestamp: number; isLeftSide: boolean; keyBytes: Buffer } {
  if (bytes.length < 9) throw new StreamsError('SERIALIZATION', `An outer join store key of ${bytes.length} bytes is too short`)
  return { timestamp: Number(bytes.readBigInt64BE(0)), isLeftSide: bytes.readUInt8(8) === 1, keyBytes: bytes.subarray(9) }
}

/** Kafka's LeftOrRightValue bytes. */
export function encodeSideValue(isLeftSide: boolean, valueBytes: Buffer): Buffer {
  return Buffer.concat([Buffer.of(isLeftSide ? 1 : 0), valueBytes])
}

export function decodeSideValue(bytes: Buffer): { isLeftSide: boolean; valueBytes: Buffer } {
  if (bytes.length < 1) throw new StreamsError('SERIALIZATION', 'An outer join store value is empty')
  return { isLeftSide: bytes.readUInt8(0) === 1, valueBytes: bytes.subarray(1) }
}

function encodeList(values: readonly Buffer[]): Buffer {
  let size = 5
  for (const v of values) size += 4 + v.length
  const out = Buffer.allocUnsafe(size)
  out.writeUInt8(VARIABLE_SIZE, 0)
  out.writeInt32BE(values.length, 1)
  let offset = 5
  for (const v of values) {
    out.writeInt32BE(v.length, offset)
    v.copy(out, offset + 4)
    offset += 4 + v.length
  }
  return out
}

function decodeList(bytes: Buffer): Buffer[] {
  if (bytes.length < 5 || bytes.readUInt8(0) !== VARIABLE_SIZE)
    throw new StreamsError('SERIALIZATION', 'An outer join store list is malformed')
  const count = bytes.readInt32BE(1)
  const values: Buffer[] = []
  let offset = 5
  for (let i = 0; i < count; i++) {
    const length = bytes.readInt32BE(offset)
    values.push(Buffer.from(bytes.subarray(offset + 4, offset + 4 + length)))
    offset += 4 + length
  }
  return values
}
