/**
 * Test certificates made in-process: a certificate authority and the certificates it issues
 * (X.509 v3, EC P-256 keys, ECDSA with SHA-256), as PEM. node:crypto makes the keys and the
 * signatures; the certificate itself is assembled with the DER helpers of der.ts, because Node
 * has no certificate builder. In milliseconds, where keytool takes seconds per call.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isIP } from 'node:net'
import {
  bitString,
  boolean,
  explicit,
  implicitPrimitive,
  integer,
  namedBits,
  octetString,
  oid,
  sequence,
  set,
  time,
  utf8String
} from './der.js'

/** A certificate and its private key, PEM: the cert as X.509, the key as unencrypted PKCS#8. */
export interface PemCredentials {
  /** The certificate, `-----BEGIN CERTIFICATE-----`. */
  readonly cert: string
  /** Its private key, `-----BEGIN PRIVATE KEY-----` (unencrypted PKCS#8). */
  readonly key: string
}

/** What a certificate is issued for. */
export interface CertificateRequest {
  /** The subject's CN, the only attribute of its name; also the Kafka principal under kafka-local's mapping rule. */
  readonly commonName: string
  /** subjectAltName entries: host names and IP addresses (a server certificate needs the address clients dial). */
  readonly altNames?: readonly string[]
  /** Days from now; default 365 (valid from an hour ago, for clock skew). */
  readonly validDays?: number
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2'
const COMMON_NAME = '2.5.4.3'
const BASIC_CONSTRAINTS = '2.5.29.19'
const KEY_USAGE = '2.5.29.15'
const SUBJECT_ALT_NAME = '2.5.29.17'
const SUBJECT_KEY_ID = '2.5.29.14'
const AUTHORITY_KEY_ID = '2.5.29.35'
const DIGITAL_SIGNATURE = 0
const KEY_CERT_SIGN = 5
const CRL_SIGN = 6

/** A self-signed CA certificate (basicConstraints CA, keyCertSign) and its key. */
export function createCertificateAuthority(request: CertificateRequest): PemCredentials {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const name = distinguishedName(request.commonName)
  const cert = certificate({
    subject: name,
    issuer: name,
    subjectKey: publicKey,
    issuerKey: publicKey,
    signer: privateKey,
    validDays: request.validDays,
    extensions: [
      extension(BASIC_CONSTRAINTS, true, sequence(boolean(true))),
      extension(KEY_USAGE, true, namedBits([KEY_CERT_SIGN, CRL_SIGN]))
    ]
  })
  return { cert, key: pkcs8(privateKey) }
}

/**
 * A certificate signed by `ca` for `request` (no extended key usage, so it serves as a server
 * and as a client certificate alike), with a fresh key.
 */
export function issueCertificate(ca: PemCredentials, request: CertificateRequest): PemCredentials {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const caKey = createPrivateKey(ca.key)
  const altNames = request.altNames ?? []
  const cert = certificate({
    subject: distinguishedName(request.commonName),
    issuer: issuerName(ca.cert),
    subjectKey: publicKey,
    issuerKey: createPublicKey(caKey),
    signer: caKey,
    validDays: request.validDays,
    extensions: [
      extension(BASIC_CONSTRAINTS, true, sequence()),
      extension(KEY_USAGE, true, namedBits([DIGITAL_SIGNATURE])),
      ...(altNames.length === 0 ? [] : [extension(SUBJECT_ALT_NAME, false, sequence(...altNames.map(generalName)))])
    ]
  })
  return { cert, key: pkcs8(privateKey) }
}

/** The DER bytes of a PEM certificate (or of its first one, for a chain). */
export function certificateDer(pem: string): Buffer {
  const match = /-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/.exec(pem)
  if (match === null) throw new TypeError('not a PEM certificate')
  return Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64')
}

interface CertificateParts {
  readonly subject: Buffer
  readonly issuer: Buffer
  readonly subjectKey: KeyObject
  readonly issuerKey: KeyObject
  readonly signer: KeyObject
  readonly validDays: number | undefined
  readonly extensions: readonly Buffer[]
}

function certificate(parts: CertificateParts): string {
  const now = Date.now()
  const algorithm = sequence(oid(ECDSA_WITH_SHA256))
  const serial = randomBytes(16)
  serial[0]! &= 0x7f
  const spki = parts.subjectKey.export({ type: 'spki', format: 'der' })
  const tbs = sequence(
    explicit(0, integer(2)),
    integer(serial),
    algorithm,
    parts.issuer,
    sequence(time(new Date(now - 3_600_000)), time(new Date(now + (parts.validDays ?? 365) * 86_400_000))),
    parts.subject,
    spki,
    explicit(
      3,
      sequence(
        ...parts.extensions,
        extension(SUBJECT_KEY_ID, false, octetString(keyId(parts.subjectKey))),
        extension(AUTHORITY_KEY_ID, false, sequence(implicitPrimitive(0, keyId(parts.issuerKey))))
      )
    )
  )
  const der = sequence(tbs, algorithm, bitString(sign('sha256', tbs, parts.signer)))
  return pem('CERTIFICATE', der)
}

function distinguishedName(commonName: string): Buffer {
  return sequence(set(sequence(oid(COMMON_NAME), utf8String(commonName))))
}

/**
 * The subject of a CA certificate, byte for byte as it is encoded there (an issuer name must
 * match the issuer's subject exactly). Only certificates made by this module are read: the
 * subject is the sixth element of the TBSCertificate, after version, serial, algorithm, issuer, validity.
 */
function issuerName(caPem: string): Buffer {
  const tbs = children(children(certificateDer(caPem))[0]!)
  return tbs[5]!
}

/** The elements inside the constructed element `der`. */
function children(der: Buffer): Buffer[] {
  const [start, end] = span(der, 0)
  const out: Buffer[] = []
  for (let at = start; at < end; at = span(der, at)[1]) out.push(der.subarray(at, span(der, at)[1]))
  return out
}

/** Where the contents of the element at `offset` start and where the element ends. */
function span(der: Buffer, offset: number): [number, number] {
  const first = der[offset + 1]!
  if (first < 0x80) return [offset + 2, offset + 2 + first]
  const count = first & 0x7f
  const n = der.subarray(offset + 2, offset + 2 + count).reduce((sum, byte) => sum * 256 + byte, 0)
  return [offset + 2 + count, offset + 2 + count + n]
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value))
}

function generalName(name: string): Buffer {
  const version = isIP(name)
  if (version === 4) return implicitPrimitive(7, Buffer.from(name.split('.').map(Number)))
  if (version === 6) throw new TypeError(`IPv6 subjectAltName entries are not supported: ${name}`)
  return implicitPrimitive(2, Buffer.from(name, 'ascii'))
}

/** A key identifier: SHA-1 of the key's SubjectPublicKeyInfo (any stable unique value will do, RFC 7093). */
function keyId(publicKey: KeyObject): Buffer {
  return createHash('sha1')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest()
}

function pkcs8(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString()
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
}
