/**
 * The few ASN.1 DER encodings that an X.509 certificate and a PKCS#12 key store are made of
 * (ITU-T X.690): tag, definite length, contents. Encoding only; nothing here parses.
 */

/** One DER element: `tag`, its length, then the concatenated `contents`. */
export function tlv(tag: number, ...contents: readonly Buffer[]): Buffer {
  const body = Buffer.concat(contents)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}

/** SEQUENCE of the given elements. */
export function sequence(...items: readonly Buffer[]): Buffer {
  return tlv(0x30, ...items)
}

/** SET OF the given elements, sorted by their encodings as DER requires. */
export function set(...items: readonly Buffer[]): Buffer {
  return tlv(0x31, ...[...items].sort(Buffer.compare))
}

/** A non-negative INTEGER, from a number or from unsigned big-endian bytes. */
export function integer(value: number | Buffer): Buffer {
  let bytes = typeof value === 'number' ? unsignedBytes(value) : value
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  bytes = bytes.subarray(start)
  if (bytes.length === 0 || bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes])
  return tlv(0x02, bytes)
}

/** BOOLEAN. */
export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0]))
}

/** NULL. */
export function nullValue(): Buffer {
  return Buffer.from([0x05, 0x00])
}

/** OBJECT IDENTIFIER from its dotted form, e.g. "2.5.4.3". */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number)
  const bytes: number[] = [40 * arcs[0]! + arcs[1]!]
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [arc & 0x7f]
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) groups.unshift((rest & 0x7f) | 0x80)
    bytes.push(...groups)
  }
  return tlv(0x06, Buffer.from(bytes))
}

/** OCTET STRING. */
export function octetString(bytes: Buffer): Buffer {
  return tlv(0x04, bytes)
}

/** BIT STRING holding whole bytes (no unused bits). */
export function bitString(bytes: Buffer): Buffer {
  return tlv(0x03, Buffer.from([0]), bytes)
}

/** BIT STRING of named bits (bit 0 is the most significant bit of the first byte), trailing zero bits dropped as DER requires. */
export function namedBits(bits: readonly number[]): Buffer {
  const last = Math.max(...bits)
  const bytes = Buffer.alloc(Math.floor(last / 8) + 1)
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7)
  return tlv(0x03, Buffer.from([7 - (last & 7)]), bytes)
}

/** UTF8String. */
export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, 'utf8'))
}

/** BMPString (UTF-16 big-endian), as PKCS#12 friendly names are. */
export function bmpString(text: string): Buffer {
  return tlv(0x1e, Buffer.from(text, 'utf16le').swap16())
}

/** UTCTime (years 1950 to 2049) or GeneralizedTime (later), in seconds, UTC. */
export function time(date: Date): Buffer {
  const iso = date.toISOString()
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z'
  const year = date.getUTCFullYear()
  return year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'))
}

/** `[n]` EXPLICIT: the context-specific constructed tag around one element. */
export function explicit(n: number, element: Buffer): Buffer {
  return tlv(0xa0 | n, element)
}

/** `[n]` IMPLICIT of a primitive type: the context-specific tag in place of the type's own. */
export function implicitPrimitive(n: number, contents: Buffer): Buffer {
  return tlv(0x80 | n, contents)
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes = unsignedBytes(n)
  return Buffer.concat([Buffer.from([0x80 | bytes.length]), bytes])
}

function unsignedBytes(n: number): Buffer {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a non-negative integer: ${n}`)
  const bytes: number[] = []
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256)
  return Buffer.from(bytes.length === 0 ? [0] : bytes)
}
