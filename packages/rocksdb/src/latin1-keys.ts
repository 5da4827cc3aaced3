/**
 * Byte keys as latin1 strings (one UTF-16 code unit per byte): they hash well as Map keys and
 * compare with `<` exactly like unsigned byte order, RocksDB's default comparator. Lossless.
 */

/** Keys up to this many bytes are converted in JavaScript, which beats the native call. */
const SHORT_KEY = 8

export function bytesToKey (bytes: Buffer): string {
  const length = bytes.length
  if (length <= SHORT_KEY) {
    let key = ''
    for (let i = 0; i < length; i++) key += String.fromCharCode(bytes[i]!)
    return key
  }
  return bytes.toString('latin1')
}

export function keyToBytes (key: string): Buffer {
  return Buffer.from(key, 'latin1')
}

/**
 * The smallest byte string greater than every key that starts with `prefix`, or undefined when
 * there is none (an empty prefix, or one made only of 0xff bytes).
 */
export function prefixUpperBound (prefix: Buffer): Buffer | undefined {
  let end = prefix.length
  while (end > 0 && prefix[end - 1] === 0xff) end--
  if (end === 0) return undefined
  const bound = Buffer.from(prefix.subarray(0, end))
  bound[end - 1] = prefix[end - 1]! + 1
  return bound
}
