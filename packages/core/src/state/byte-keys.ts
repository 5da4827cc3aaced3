/**
 * Byte keys as latin1 strings: each byte becomes one UTF-16 code unit (0..255), so the strings
 * hash well as Map keys and compare (`<`) exactly like unsigned byte order, the order RocksDB
 * and Kafka's Bytes comparator use. Conversion is lossless both ways. Shared by the record
 * cache, the in-memory stores and the RocksDB write overlay. @internal
 */

/** Keys up to this many bytes are converted in JavaScript, which beats the native call. */
const SHORT_KEY = 8

export function bytesToKey(bytes: Buffer): string {
  const length = bytes.length
  if (length <= SHORT_KEY) {
    let key = ''
    for (let i = 0; i < length; i++) key += String.fromCharCode(bytes[i]!)
    return key
  }
  return bytes.toString('latin1')
}

export function keyToBytes(key: string): Buffer {
  return Buffer.from(key, 'latin1')
}

/**
 * The smallest key greater than every key that starts with `prefix`, or undefined when there is
 * none (an empty prefix, or one made only of 0xff bytes).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  let end = prefix.length
  while (end > 0 && prefix.charCodeAt(end - 1) === 0xff) end--
  if (end === 0) return undefined
  return prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1)
}

/** The key of an optional range bound: undefined (or null) stays open. */
export function boundToKey(bound: Buffer | undefined): string | undefined {
  return bound === undefined || bound === null ? undefined : bytesToKey(bound)
}

/**
 * The smallest byte string greater than every key that starts with `prefix`, or undefined when
 * there is none (an empty prefix, or one made only of 0xff bytes).
 */
export function prefixUpperBoundBytes(prefix: Buffer): Buffer | undefined {
  let end = prefix.length
  while (end > 0 && prefix[end - 1] === 0xff) end--
  if (end === 0) return undefined
  const bound = Buffer.from(prefix.subarray(0, end))
  bound[end - 1] = prefix[end - 1]! + 1
  return bound
}
