/**
 * The byte layouts of a foreign-key join's internal data, as Kafka Streams writes them:
 * - SubscriptionWrapper (subscription topic values, subscription store values; version 1):
 *   `{1 bit hash-is-null}{7 bits version}{1 byte instruction}{16 byte hash, if any}{primary key}{4 byte primary partition}`
 * - SubscriptionResponseWrapper (response topic values; version 1):
 *   `{1 bit hash-is-null}{7 bits version}{4 byte primary partition}{16 byte hash, if any}{foreign value, if any}`
 * Version 0 (no primary partition) is read too, as Kafka Streams reads it after an upgrade.
 * - CombinedKey (subscription store keys): `{4 byte foreign key length}{foreign key}{primary key}`,
 *   so that a prefix scan by foreign key finds every subscriber.
 * Keys and values inside are already serialized by the tables' serdes. @internal
 */
import { SerializationError } from '@kstreams/core'

/** What a subscription asks the right side to do (Kafka's SubscriptionWrapper.Instruction). */
export const Instruction = {
  DELETE_KEY_NO_PROPAGATE: 0,
  DELETE_KEY_AND_PROPAGATE: 1,
  PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE: 2,
  PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE: 3
} as const
export type Instruction = (typeof Instruction)[keyof typeof Instruction]

/** The two signed 64-bit halves of a murmur3 128 hash. */
export type ValueHash = readonly [bigint, bigint]

export interface SubscriptionWrapper {
  readonly hash: ValueHash | null
  readonly instruction: Instruction
  readonly primaryKey: Buffer
  readonly primaryPartition: number
}

export interface SubscriptionResponseWrapper {
  readonly hash: ValueHash | null
  readonly foreignValue: Buffer | null
  readonly primaryPartition: number
}

const VERSION = 1
const HASH_BYTES = 16

function writeHeader(buf: Buffer, hash: ValueHash | null): number {
  buf.writeUInt8(hash === null ? VERSION | 0x80 : VERSION, 0)
  return 1
}

function readHeader(data: Buffer, what: string): { hashNull: boolean; version: number } {
  if (data.length < 1) throw new SerializationError(`Empty ${what}`)
  const first = data.readUInt8(0)
  const version = first & 0x7f
  if (version > VERSION) throw new SerializationError(`Unknown ${what} version ${version}`)
  return { hashNull: (first & 0x80) !== 0, version }
}

export function serializeSubscription(w: SubscriptionWrapper): Buffer {
  const hashLength = w.hash === null ? 0 : HASH_BYTES
  const buf = Buffer.alloc(2 + hashLength + w.primaryKey.length + 4)
  let offset = writeHeader(buf, w.hash)
  buf.writeInt8(w.instruction, offset++)
  if (w.hash !== null) {
    buf.writeBigInt64BE(w.hash[0], offset)
    buf.writeBigInt64BE(w.hash[1], offset + 8)
    offset += HASH_BYTES
  }
  w.primaryKey.copy(buf, offset)
  buf.writeInt32BE(w.primaryPartition, buf.length - 4)
  return buf
}

export function deserializeSubscription(data: Buffer): SubscriptionWrapper {
  const { hashNull, version } = readHeader(data, 'SubscriptionWrapper')
  const instruction = data.readInt8(1) as Instruction
  let offset = 2
  let hash: ValueHash | null = null
  if (!hashNull) {
    hash = [data.readBigInt64BE(offset), data.readBigInt64BE(offset + 8)]
    offset += HASH_BYTES
  }
  const end = version > 0 ? data.length - 4 : data.length
  return { hash, instruction, primaryKey: data.subarray(offset, end), primaryPartition: version > 0 ? data.readInt32BE(end) : -1 }
}

export function serializeResponse(w: SubscriptionResponseWrapper): Buffer {
  const hashLength = w.hash === null ? 0 : HASH_BYTES
  const valueLength = w.foreignValue?.length ?? 0
  const buf = Buffer.alloc(1 + 4 + hashLength + valueLength)
  let offset = writeHeader(buf, w.hash)
  buf.writeInt32BE(w.primaryPartition, offset)
  offset += 4
  if (w.hash !== null) {
    buf.writeBigInt64BE(w.hash[0], offset)
    buf.writeBigInt64BE(w.hash[1], offset + 8)
    offset += HASH_BYTES
  }
  w.foreignValue?.copy(buf, offset)
  return buf
}

export function deserializeResponse(data: Buffer): SubscriptionResponseWrapper {
  const { hashNull, version } = readHeader(data, 'SubscriptionResponseWrapper')
  let offset = 1
  const primaryPartition = version > 0 ? data.readInt32BE(offset) : -1
  if (version > 0) offset += 4
  let hash: ValueHash | null = null
  if (!hashNull) {
    hash = [data.readBigInt64BE(offset), data.readBigInt64BE(offset + 8)]
    offset += HASH_BYTES
  }
  return { hash, foreignValue: data.length > offset ? data.subarray(offset) : null, primaryPartition }
}

/** The store key of a subscription: the foreign key prefix, then the primary key. */
export function combinedKey(foreignKey: Buffer, primaryKey: Buffer): Buffer {
  return Buffer.concat([foreignKeyPrefix(foreignKey), primaryKey])
}

export function foreignKeyPrefix(foreignKey: Buffer): Buffer {
  const buf = Buffer.alloc(4 + foreignKey.length)
  buf.writeInt32BE(foreignKey.length, 0)
  foreignKey.copy(buf, 4)
  return buf
}

export function splitCombinedKey(key: Buffer): { foreignKey: Buffer; primaryKey: Buffer } {
  const length = key.readInt32BE(0)
  return { foreignKey: key.subarray(4, 4 + length), primaryKey: key.subarray(4 + length) }
}

export function hashesEqual(a: ValueHash | null, b: ValueHash | null): boolean {
  if (a === null || b === null) return a === b
  return a[0] === b[0] && a[1] === b[1]
}

/** The primary partition a serialized response goes back to (-1 when unknown). */
export function responsePrimaryPartition(data: Buffer): number {
  return (data.readUInt8(0) & 0x7f) > 0 ? data.readInt32BE(1) : -1
}
