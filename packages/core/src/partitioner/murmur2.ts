/**
 * Java-compatible murmur2 (Kafka's `Utils.murmur2`) and the default key partitioning built on it
 * (`Utils.toPositive(Utils.murmur2(keyBytes)) % numPartitions`), so records keyed here land in
 * the same partition as records a Java producer or Kafka Streams app writes with the same key.
 */
import { StreamsError } from '../errors.js'

const M = 0x5bd1e995
const SEED = 0x9747b28c

/** Kafka's murmur2 of the bytes, as a signed 32-bit integer (Java's int). */
export function murmur2(data: Uint8Array): number {
  const length = data.length
  let h = (SEED ^ length) | 0
  const blocks = length >>> 2
  for (let i = 0; i < blocks; i++) {
    const i4 = i << 2
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24)
    k = Math.imul(k, M)
    k ^= k >>> 24
    k = Math.imul(k, M)
    h = Math.imul(h, M) ^ k
  }
  const rest = length & 3
  if (rest !== 0) {
    const tail = length - rest
    if (rest === 3) h ^= data[tail + 2]! << 16
    if (rest >= 2) h ^= data[tail + 1]! << 8
    h ^= data[tail]!
    h = Math.imul(h, M)
  }
  h ^= h >>> 13
  h = Math.imul(h, M)
  h ^= h >>> 15
  return h | 0
}

/** The partition Java's default partitioner picks for a non-null key: toPositive(murmur2) % n. */
export function partitionFor(keyBytes: Uint8Array, numPartitions: number): number {
  if (!(numPartitions > 0 && Number.isInteger(numPartitions))) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `numPartitions must be a positive integer, got ${numPartitions}`)
  }
  return (murmur2(keyBytes) & 0x7fffffff) % numPartitions
}
