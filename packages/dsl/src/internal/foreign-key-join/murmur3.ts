/**
 * Murmur3 x64 128-bit hash with Kafka Streams' seed (its internal `Murmur3.hash128`): the hash of
 * a left value's serialized bytes that a foreign-key join carries through the subscription and
 * response topics to recognize stale responses. Returns the two 64-bit halves as signed bigints,
 * as Java's `long[2]`. @internal
 */
const MASK = (1n << 64n) - 1n
const C1 = 0x87c37b91114253d5n
const C2 = 0x4cf5ad432745937fn
const SEED = 104729n

function rotl(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & MASK
}

function mul(a: bigint, b: bigint): bigint {
  return (a * b) & MASK
}

function fmix(h: bigint): bigint {
  h ^= h >> 33n
  h = mul(h, 0xff51afd7ed558ccdn)
  h ^= h >> 33n
  h = mul(h, 0xc4ceb9fe1a85ec53n)
  h ^= h >> 33n
  return h
}

function readLong(data: Uint8Array, offset: number, length: number): bigint {
  let k = 0n
  for (let i = length - 1; i >= 0; i--) k = (k << 8n) | BigInt(data[offset + i]!)
  return k
}

export function murmur3Hash128(data: Uint8Array): [bigint, bigint] {
  let h1 = SEED
  let h2 = SEED
  const blocks = data.length >> 4
  for (let i = 0; i < blocks; i++) {
    let k1 = readLong(data, i * 16, 8)
    let k2 = readLong(data, i * 16 + 8, 8)
    k1 = mul(rotl(mul(k1, C1), 31n), C2)
    h1 = rotl(h1 ^ k1, 27n)
    h1 = (mul((h1 + h2) & MASK, 5n) + 0x52dce729n) & MASK
    k2 = mul(rotl(mul(k2, C2), 33n), C1)
    h2 = rotl(h2 ^ k2, 31n)
    h2 = (mul((h2 + h1) & MASK, 5n) + 0x38495ab5n) & MASK
  }
  const tail = blocks * 16
  const rest = data.length - tail
  if (rest > 8) {
    const k2 = mul(rotl(mul(readLong(data, tail + 8, rest - 8), C2), 33n), C1)
    h2 ^= k2
  }
  if (rest > 0) {
    const k1 = mul(rotl(mul(readLong(data, tail, Math.min(rest, 8)), C1), 31n), C2)
    h1 ^= k1
  }
  const len = BigInt(data.length)
  h1 ^= len
  h2 ^= len
  h1 = (h1 + h2) & MASK
  h2 = (h2 + h1) & MASK
  h1 = fmix(h1)
  h2 = fmix(h2)
  h1 = (h1 + h2) & MASK
  h2 = (h2 + h1) & MASK
  return [BigInt.asIntN(64, h1), BigInt.asIntN(64, h2)]
}
