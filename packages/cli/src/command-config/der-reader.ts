/**
 * A small ASN.1 reader for the DER (and BER: indefinite lengths, constructed OCTET STRINGs) that
 * PKCS#12 files are made of (ITU-T X.690): elements with their tag, contents and children, and
 * the few value types a key store holds. Throws DerError on anything malformed. @internal
 */

/** Malformed DER/BER. */
export class DerError extends Error {}

/** One ASN.1 element. */
export interface DerElement {
  /** The identifier octet (single-byte tags only, as PKCS#12 uses). */
  readonly tag: number
  readonly constructed: boolean
  /** The contents octets (for an indefinite length: up to, not including, the end-of-contents). */
  readonly contents: Buffer
  /** The whole encoding, identifier to end. */
  readonly encoded: Buffer
}

/** Tags. */
export const TAG = Object.freeze({ INTEGER: 0x02, OCTET_STRING: 0x04, NULL: 0x05, OID: 0x06, SEQUENCE: 0x30, SET: 0x31 })

/** The one element `bytes` holds (nothing may follow it). */
export function readDer(bytes: Buffer): DerElement {
  const { element, end } = readElement(bytes, 0)
  if (end !== bytes.length) throw new DerError(`${bytes.length - end} bytes after the end of the structure`)
  return element
}

/** The children of a constructed element. */
export function children(element: DerElement): DerElement[] {
  if (!element.constructed) throw new DerError(`element with tag 0x${element.tag.toString(16)} is not constructed`)
  const out: DerElement[] = []
  let at = 0
  while (at < element.contents.length) {
    const { element: child, end } = readElement(element.contents, at)
    out.push(child)
    at = end
  }
  return out
}

/** The children of a SEQUENCE, checking the tag and, when given, the count range. */
export function sequence(element: DerElement | undefined, what: string, min = 0, max = Number.POSITIVE_INFINITY): DerElement[] {
  const items = children(expectTag(element, TAG.SEQUENCE, what))
  if (items.length < min || items.length > max) throw new DerError(`${what}: ${items.length} elements`)
  return items
}

/** `element`, checked to have `tag`. */
export function expectTag(element: DerElement | undefined, tag: number, what: string): DerElement {
  if (element === undefined) throw new DerError(`${what} is missing`)
  // A BER constructed string (0x24 for OCTET STRING) counts as its primitive type.
  if (element.tag !== tag && !(element.constructed && (element.tag & ~0x20) === tag && tag !== TAG.SEQUENCE && tag !== TAG.SET))
    throw new DerError(`${what}: tag 0x${element.tag.toString(16)}, expected 0x${tag.toString(16)}`)
  return element
}

/** An OBJECT IDENTIFIER in dotted form. */
export function oid(element: DerElement | undefined, what: string): string {
  const bytes = expectTag(element, TAG.OID, what).contents
  if (bytes.length === 0) throw new DerError(`${what}: empty object identifier`)
  const arcs: number[] = []
  let value = 0
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f)
    if (byte & 0x80) continue
    if (arcs.length === 0) arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80)
    else arcs.push(value)
    value = 0
  }
  return arcs.join('.')
}

/** The bytes of an OCTET STRING (joined, for a BER constructed one). */
export function octets(element: DerElement | undefined, what: string): Buffer {
  const checked = expectTag(element, TAG.OCTET_STRING, what)
  return checked.constructed ? Buffer.concat(children(checked).map(part => octets(part, what))) : checked.contents
}

/** A non-negative INTEGER that fits a JavaScript number. */
export function integer(element: DerElement | undefined, what: string): number {
  const bytes = expectTag(element, TAG.INTEGER, what).contents
  if (bytes.length === 0 || bytes.length > 6 || bytes[0]! & 0x80) throw new DerError(`${what}: not a small non-negative integer`)
  return bytes.reduce((n, byte) => n * 256 + byte, 0)
}

/** The contents of `[n]` EXPLICIT: its one child. */
export function explicit(element: DerElement | undefined, n: number, what: string): DerElement {
  if (element === undefined || element.tag !== (0xa0 | n)) throw new DerError(`${what}: expected [${n}]`)
  const inner = children(element)
  if (inner.length !== 1) throw new DerError(`${what}: [${n}] holds ${inner.length} elements`)
  return inner[0]!
}

function readElement(bytes: Buffer, start: number): { element: DerElement; end: number } {
  if (start + 2 > bytes.length) throw new DerError('truncated element')
  const tag = bytes[start]!
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not used in PKCS#12')
  const constructed = (tag & 0x20) !== 0
  let at = start + 1
  const first = bytes[at++]!
  if (first === 0x80) {
    if (!constructed) throw new DerError('indefinite length on a primitive element')
    const contentStart = at
    for (;;) {
      if (at + 2 > bytes.length) throw new DerError('indefinite length without end-of-contents')
      if (bytes[at] === 0 && bytes[at + 1] === 0) break
      at = readElement(bytes, at).end
    }
    return {
      element: { tag, constructed, contents: bytes.subarray(contentStart, at), encoded: bytes.subarray(start, at + 2) },
      end: at + 2
    }
  }
  let length = first
  if (first & 0x80) {
    const count = first & 0x7f
    if (count > 4 || at + count > bytes.length) throw new DerError('bad length')
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + bytes[at++]!
  }
  const end = at + length
  if (end > bytes.length) throw new DerError('element longer than its container')
  return { element: { tag, constructed, contents: bytes.subarray(at, end), encoded: bytes.subarray(start, end) }, end }
}
