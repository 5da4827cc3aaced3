/**
 * PKCS#12 key and trust stores (RFC 7292), the files Java's `ssl.keystore.location` and
 * `ssl.truststore.location` read (type PKCS12, Java's default since 9). Written in-process: the
 * private key in a PKCS8ShroudedKeyBag (PBES2: PBKDF2-HMAC-SHA256 and AES-256-CBC, as node:crypto
 * exports it), certificates in plain CertBags, and an HMAC-SHA256 integrity MAC keyed by the
 * PKCS#12 key derivation. A trust store marks its certificate with the attribute Java's
 * PKCS12KeyStore reads as "trusted" (Oracle's trusted-key-usage OID, any extended key usage).
 * Node's TLS reads them too (`pfx` and `passphrase`).
 */
import { createHash, createHmac, createPrivateKey, randomBytes } from 'node:crypto'
import { certificateDer } from './certificates.js'
import { bmpString, explicit, integer, nullValue, octetString, oid, sequence, set } from './der.js'

const DATA = '1.2.840.113549.1.7.1'
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2'
const CERT_BAG = '1.2.840.113549.1.12.10.1.3'
const X509_CERTIFICATE = '1.2.840.113549.1.9.22.1'
const FRIENDLY_NAME = '1.2.840.113549.1.9.20'
const LOCAL_KEY_ID = '1.2.840.113549.1.9.21'
const JAVA_TRUSTED_KEY_USAGE = '2.16.840.1.113894.746875.1.1'
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0'
const SHA256 = '2.16.840.1.101.3.4.2.1'
const MAC_ITERATIONS = 2048

/** A key store: one private key entry named `alias`, with its certificate chain (leaf first). */
export function pkcs12KeyStore(options: { alias: string; key: string; chain: readonly string[]; password: string }): Buffer {
  const keyId = createHash('sha1').update(certificateDer(options.chain[0]!)).digest()
  const shrouded = createPrivateKey(options.key).export({
    type: 'pkcs8',
    format: 'der',
    cipher: 'aes-256-cbc',
    passphrase: options.password
  })
  const identity = [attribute(FRIENDLY_NAME, bmpString(options.alias)), attribute(LOCAL_KEY_ID, octetString(keyId))]
  const keyBag = safeBag(SHROUDED_KEY_BAG, shrouded, identity)
  const certBags = options.chain.map((pem, i) => safeBag(CERT_BAG, certBag(pem), i === 0 ? identity : []))
  return pfx([data(sequence(keyBag)), data(sequence(...certBags))], options.password)
}

/** A trust store: `ca` as a trusted certificate entry named `alias`. */
export function pkcs12TrustStore(options: { alias: string; ca: string; password: string }): Buffer {
  const trusted = attribute(JAVA_TRUSTED_KEY_USAGE, oid(ANY_EXTENDED_KEY_USAGE))
  const bag = safeBag(CERT_BAG, certBag(options.ca), [attribute(FRIENDLY_NAME, bmpString(options.alias)), trusted])
  return pfx([data(sequence(bag))], options.password)
}

function pfx(contents: readonly Buffer[], password: string): Buffer {
  const authSafe = sequence(...contents)
  const salt = randomBytes(16)
  const macKey = pkcs12Kdf(password, salt, 3, MAC_ITERATIONS, 32)
  const mac = createHmac('sha256', macKey).update(authSafe).digest()
  const macData = sequence(sequence(sequence(oid(SHA256), nullValue()), octetString(mac)), octetString(salt), integer(MAC_ITERATIONS))
  return sequence(integer(3), data(authSafe), macData)
}

/** ContentInfo of type data around `content`. */
function data(content: Buffer): Buffer {
  return sequence(oid(DATA), explicit(0, octetString(content)))
}

function safeBag(type: string, value: Buffer, attributes: readonly Buffer[]): Buffer {
  return attributes.length === 0 ? sequence(oid(type), explicit(0, value)) : sequence(oid(type), explicit(0, value), set(...attributes))
}

function certBag(pem: string): Buffer {
  return sequence(oid(X509_CERTIFICATE), explicit(0, octetString(certificateDer(pem))))
}

function attribute(type: string, value: Buffer): Buffer {
  return sequence(oid(type), set(value))
}

/**
 * The PKCS#12 key derivation (RFC 7292 appendix B.2) with SHA-256: `id` 3 makes a MAC key. The
 * password is its BMPString with two zero bytes at the end.
 */
export function pkcs12Kdf(password: string, salt: Buffer, id: number, iterations: number, size: number): Buffer {
  const u = 32
  const v = 64
  const pass = password === '' ? Buffer.alloc(0) : Buffer.concat([Buffer.from(password, 'utf16le').swap16(), Buffer.alloc(2)])
  const fill = (source: Buffer): Buffer => {
    const out = Buffer.alloc(v * Math.ceil(source.length / v))
    for (let i = 0; i < out.length; i++) out[i] = source[i % source.length]!
    return out
  }
  const input = Buffer.concat([fill(salt), fill(pass)])
  const diversifier = Buffer.alloc(v, id)
  const out: Buffer[] = []
  for (let produced = 0; produced < size; produced += u) {
    let a = createHash('sha256').update(diversifier).update(input).digest()
    for (let i = 1; i < iterations; i++) a = createHash('sha256').update(a).digest()
    out.push(a)
    const b = fill(a).subarray(0, v)
    for (let block = 0; block < input.length; block += v) {
      let carry = 1
      for (let i = v - 1; i >= 0; i--) {
        const sum = input[block + i]! + b[i]! + carry
        input[block + i] = sum & 0xff
        carry = sum >> 8
      }
    }
  }
  return Buffer.concat(out).subarray(0, size)
}
