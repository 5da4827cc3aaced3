/**
 * Reads the certificates and private keys of a PKCS#12 key or trust store (RFC 7292), the files
 * Java's `ssl.keystore.location` and `ssl.truststore.location` name with type PKCS12: node:crypto
 * has no PKCS#12 reader, and Node's TLS `pfx` option covers only a client's own key (not trusted
 * certificates) and is not a TLS option the kstreams adapters take.
 *
 * What it reads is what keytool (Java 9 and later) and `openssl pkcs12` write: certificate bags,
 * plain key bags and shrouded key bags, in plain or encrypted contents; encryption PBES2 (PBKDF2
 * with HMAC-SHA1/224/256/384/512, AES-128/192/256-CBC or 3DES-CBC: Java 17's and OpenSSL 3's
 * defaults) or PKCS#12's own pbeWithSHAAnd3-KeyTripleDES-CBC (Java 8's keys, `-legacy` keys); the
 * integrity MAC (HMAC with SHA-1/224/256/384/512) is checked when a password is given. RC2 and RC4
 * (the certificates of Java 8's and OpenSSL 1's stores) are not in Node's OpenSSL 3: such a store
 * is refused naming the algorithm. @internal
 */
import { createDecipheriv, createHash, createHmac, pbkdf2Sync, timingSafeEqual } from 'node:crypto'
import { DerError, explicit, integer, octets, oid, readDer, sequence, type DerElement } from './der-reader.js'

/** A PKCS#12 file that cannot be read; the message says why, never a password. */
export class Pkcs12Error extends Error {}

/** What a PKCS#12 store holds. */
export interface Pkcs12Contents {
  /** Every certificate (DER), in file order, with the local key id that ties it to a key. */
  readonly certificates: ReadonlyArray<{ readonly der: Buffer; readonly localKeyId: Buffer | undefined }>
  /** Every private key as unencrypted PKCS#8 (DER), with its local key id. */
  readonly keys: ReadonlyArray<{ readonly pkcs8: Buffer; readonly localKeyId: Buffer | undefined }>
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  localKeyId: '1.2.840.113549.1.9.21',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
  pbmac1: '1.2.840.113549.1.5.14',
  pbeWithSha1And3KeyTripleDesCbc: '1.2.840.113549.1.12.1.3'
} as const

/** Digests by OID: name, output size (u) and block size (v) for the PKCS#12 key derivation. */
const DIGESTS: Readonly<Record<string, { name: string; u: number; v: number }>> = {
  '1.3.14.3.2.26': { name: 'sha1', u: 20, v: 64 },
  '2.16.840.1.101.3.4.2.4': { name: 'sha224', u: 28, v: 64 },
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', u: 32, v: 64 },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', u: 48, v: 128 },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', u: 64, v: 128 }
}
const PBKDF2_PRFS: Readonly<Record<string, string>> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512'
}
const CIPHERS: Readonly<Record<string, { name: string; keyLength: number }>> = {
  '2.16.840.1.101.3.4.1.2': { name: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { name: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { name: 'des-ede3-cbc', keyLength: 24 }
}
/** Algorithms a store may use that Node's OpenSSL 3 does not offer. */
const LEGACY: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.12.1.1': 'pbeWithSHAAnd128BitRC4',
  '1.2.840.113549.1.12.1.2': 'pbeWithSHAAnd40BitRC4',
  '1.2.840.113549.1.12.1.4': 'pbeWithSHAAnd2-KeyTripleDES-CBC',
  '1.2.840.113549.1.12.1.5': 'pbeWithSHAAnd128BitRC2-CBC',
  '1.2.840.113549.1.12.1.6': 'pbeWithSHAAnd40BitRC2-CBC',
  '1.2.840.113549.1.5.3': 'pbeWithMD5AndDES-CBC',
  '1.2.840.113549.1.5.10': 'pbeWithSHA1AndDES-CBC',
  '1.2.840.113549.3.2': 'RC2-CBC'
}

/**
 * The certificates and keys of PKCS#12 `bytes`. `password` (the store's) decrypts encrypted
 * contents and is checked against the integrity MAC; without one, only unencrypted contents can
 * be read (as Java reads a trust store without a password). `keyPassword` (default `password`)
 * decrypts the private keys. Throws Pkcs12Error.
 */
export function readPkcs12(bytes: Buffer, password: string | undefined, keyPassword = password): Pkcs12Contents {
  try {
    return read(bytes, password, keyPassword)
  } catch (error) {
    if (error instanceof DerError) throw new Pkcs12Error(`not a PKCS#12 file (${error.message})`)
    throw error
  }
}

function read(bytes: Buffer, password: string | undefined, keyPassword: string | undefined): Pkcs12Contents {
  const [version, authSafe, macData] = sequence(readDer(bytes), 'PFX', 2, 3)
  if (integer(version, 'PFX version') !== 3) throw new Pkcs12Error('not a PKCS#12 version 3 file')
  const [contentType, content] = sequence(authSafe, 'authSafe', 1, 2)
  if (oid(contentType, 'authSafe type') !== OID.data)
    throw new Pkcs12Error('the store is signed with a public key (not password-integrity): not supported')
  const authenticated = octets(explicit(content, 0, 'authSafe content'), 'authSafe content')
  if (password !== undefined && macData !== undefined) checkMac(macData, authenticated, password)
  const certificates: Array<{ der: Buffer; localKeyId: Buffer | undefined }> = []
  const keys: Array<{ pkcs8: Buffer; localKeyId: Buffer | undefined }> = []
  for (const info of sequence(readDer(authenticated), 'AuthenticatedSafe')) {
    const [type, value] = sequence(info, 'ContentInfo', 1, 2)
    const kind = oid(type, 'ContentInfo type')
    let safeContents: Buffer
    if (kind === OID.data) safeContents = octets(explicit(value, 0, 'data'), 'data')
    else if (kind === OID.encryptedData) {
      if (password === undefined) throw new Pkcs12Error('its certificates are encrypted: the store password is needed')
      safeContents = decryptContents(explicit(value, 0, 'encryptedData'), password)
    } else throw new Pkcs12Error(`contents of type ${kind} (public-key encrypted) are not supported`)
    for (const bag of sequence(readDer(safeContents), 'SafeContents')) {
      const [bagId, bagValue, attributes] = sequence(bag, 'SafeBag', 2, 3)
      const localKeyId = attributes === undefined ? undefined : attribute(attributes, OID.localKeyId)
      const kindOfBag = oid(bagId, 'SafeBag type')
      const inner = explicit(bagValue, 0, 'SafeBag value')
      if (kindOfBag === OID.certBag) {
        const [certType, certValue] = sequence(inner, 'CertBag', 2, 2)
        if (oid(certType, 'CertBag type') !== OID.x509Certificate) continue
        certificates.push({ der: Buffer.from(octets(explicit(certValue, 0, 'CertBag value'), 'certificate')), localKeyId })
      } else if (kindOfBag === OID.keyBag) keys.push({ pkcs8: Buffer.from(inner.encoded), localKeyId })
      else if (kindOfBag === OID.shroudedKeyBag) {
        if (keyPassword === undefined) throw new Pkcs12Error('its private key is encrypted: a password is needed')
        const [algorithm, encrypted] = sequence(inner, 'EncryptedPrivateKeyInfo', 2, 2)
        keys.push({ pkcs8: decrypt(algorithm!, octets(encrypted, 'encrypted key'), keyPassword, 'the private key'), localKeyId })
      }
    }
  }
  return { certificates, keys }
}

/** The value of the attribute `type` in a SafeBag's attribute set, as bytes. */
function attribute(attributes: DerElement, type: string): Buffer | undefined {
  for (const attr of childrenOfSet(attributes)) {
    const [attrType, values] = sequence(attr, 'attribute', 2, 2)
    if (oid(attrType, 'attribute type') === type) {
      const [first] = childrenOfSet(values!)
      return first === undefined ? undefined : Buffer.from(octets(first, 'attribute value'))
    }
  }
  return undefined
}

function childrenOfSet(element: DerElement): DerElement[] {
  if (element.tag !== 0x31) throw new DerError('expected a SET')
  return sequence({ ...element, tag: 0x30 }, 'SET')
}

function checkMac(macData: DerElement, authenticated: Buffer, password: string): void {
  const [digestInfo, salt, iterations] = sequence(macData, 'MacData', 2, 3)
  const [algorithm, expected] = sequence(digestInfo, 'DigestInfo', 2, 2)
  const [digestOid] = sequence(algorithm, 'digest algorithm', 1, 2)
  const digestId = oid(digestOid, 'digest algorithm')
  if (digestId === OID.pbmac1) throw new Pkcs12Error('its integrity check uses PBMAC1, which is not supported; use PEM')
  const digest = DIGESTS[digestId]
  if (digest === undefined) throw new Pkcs12Error(`its integrity check uses digest ${digestId}, which is not supported`)
  const rounds = iterations === undefined ? 1 : integer(iterations, 'MAC iterations')
  const key = pkcs12Kdf(digest, password, octets(salt, 'MAC salt'), 3, rounds, digest.u)
  const actual = createHmac(digest.name, key).update(authenticated).digest()
  const wanted = octets(expected, 'MAC')
  if (actual.length !== wanted.length || !timingSafeEqual(actual, wanted))
    throw new Pkcs12Error('the password is wrong (the integrity check of the store failed)')
}

function decryptContents(encryptedData: DerElement, password: string): Buffer {
  const [, encryptedContentInfo] = sequence(encryptedData, 'EncryptedData', 2, 3)
  const [, algorithm, content] = sequence(encryptedContentInfo, 'EncryptedContentInfo', 3, 3)
  // [0] IMPLICIT OCTET STRING: primitive 0x80, or BER constructed 0xa0 of OCTET STRINGs.
  if (content!.tag !== 0x80 && content!.tag !== 0xa0) throw new DerError('EncryptedContentInfo: expected [0]')
  const encrypted = content!.tag === 0x80 ? content!.contents : octets({ ...content!, tag: 0x24 }, 'encrypted content')
  return decrypt(algorithm!, encrypted, password, 'the certificates')
}

/** Decrypts with a password-based algorithm (PBES2 or PKCS#12 3DES). */
function decrypt(algorithm: DerElement, data: Buffer, password: string, what: string): Buffer {
  const [algorithmOid, params] = sequence(algorithm, 'encryption algorithm', 1, 2)
  const id = oid(algorithmOid, 'encryption algorithm')
  let cipher: string
  let key: Buffer
  let iv: Buffer
  if (id === OID.pbes2) {
    const [kdf, scheme] = sequence(params, 'PBES2 parameters', 2, 2)
    const [kdfOid, kdfParams] = sequence(kdf, 'key derivation', 2, 2)
    if (oid(kdfOid, 'key derivation') !== OID.pbkdf2)
      throw new Pkcs12Error(`${what}: encrypted with a key derivation other than PBKDF2, which is not supported`)
    const [salt, iterations, ...rest] = sequence(kdfParams, 'PBKDF2 parameters', 2, 4)
    const prfElement = rest.find(e => e.tag === 0x30)
    const prfOid = prfElement === undefined ? '1.2.840.113549.2.7' : oid(sequence(prfElement, 'PRF', 1, 2)[0], 'PRF')
    const prf = PBKDF2_PRFS[prfOid]
    const [schemeOid, ivElement] = sequence(scheme, 'encryption scheme', 2, 2)
    const schemeId = oid(schemeOid, 'encryption scheme')
    const spec = CIPHERS[schemeId]
    if (prf === undefined || spec === undefined) throw new Pkcs12Error(unsupported(what, LEGACY[schemeId] ?? schemeId))
    cipher = spec.name
    key = pbkdf2Sync(Buffer.from(password, 'utf8'), octets(salt, 'salt'), integer(iterations, 'iterations'), spec.keyLength, prf)
    iv = octets(ivElement, 'IV')
  } else if (id === OID.pbeWithSha1And3KeyTripleDesCbc) {
    const [salt, iterations] = sequence(params, 'PBE parameters', 2, 2)
    const sha1 = DIGESTS['1.3.14.3.2.26']!
    const rounds = integer(iterations, 'iterations')
    cipher = 'des-ede3-cbc'
    key = pkcs12Kdf(sha1, password, octets(salt, 'salt'), 1, rounds, 24)
    iv = pkcs12Kdf(sha1, password, octets(salt, 'salt'), 2, rounds, 8)
  } else throw new Pkcs12Error(unsupported(what, LEGACY[id] ?? id))
  try {
    const decipher = createDecipheriv(cipher, key, iv)
    return Buffer.concat([decipher.update(data), decipher.final()])
  } catch (error) {
    throw new Pkcs12Error(`${what}: could not be decrypted: the password is wrong`, { cause: error })
  }
}

function unsupported(what: string, algorithm: string): string {
  return (
    `${what}: encrypted with ${algorithm}, which Node's OpenSSL 3 does not offer (older keytool and openssl -legacy write it): ` +
    're-create the store with keytool from Java 17+ or openssl 3 without -legacy, or use PEM'
  )
}

/** The PKCS#12 key derivation (RFC 7292 appendix B.2): `id` 1 for a key, 2 for an IV, 3 for a MAC key. */
function pkcs12Kdf(
  digest: { name: string; u: number; v: number },
  password: string,
  salt: Buffer,
  id: number,
  rounds: number,
  size: number
): Buffer {
  const { u, v } = digest
  // The password as a BMPString with two zero bytes at the end.
  const pass = Buffer.concat([Buffer.from(password, 'utf16le').swap16(), Buffer.alloc(2)])
  const fill = (source: Buffer): Buffer => {
    const out = Buffer.alloc(source.length === 0 ? 0 : v * Math.ceil(source.length / v))
    for (let i = 0; i < out.length; i++) out[i] = source[i % source.length]!
    return out
  }
  const input = Buffer.concat([fill(salt), fill(pass)])
  const diversifier = Buffer.alloc(v, id)
  const out: Buffer[] = []
  for (let produced = 0; produced < size; produced += u) {
    let a = createHash(digest.name).update(diversifier).update(input).digest()
    for (let i = 1; i < rounds; i++) a = createHash(digest.name).update(a).digest()
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
