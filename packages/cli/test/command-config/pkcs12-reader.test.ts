import { expect } from 'chai'
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Pkcs12Error, readPkcs12 } from '../../src/command-config/pkcs12-reader.js'

const TLS = fileURLToPath(new URL('../fixtures/tls/', import.meta.url))
const fixture = (name: string): Buffer => readFileSync(`${TLS}${name}`)
const derOf = (pem: string): Buffer => Buffer.from(new X509Certificate(fixture(pem)).raw)
const publicKeyOf = (pkcs8: Buffer): string =>
  createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).export({ type: 'spki', format: 'pem' }) as string
const CLIENT_PUBLIC_KEY = createPublicKey(fixture('client.pem')).export({ type: 'spki', format: 'pem' }) as string
const failure = (bytes: Buffer, password: string | undefined, keyPassword?: string): string => {
  try {
    readPkcs12(bytes, password, keyPassword ?? password)
  } catch (error) {
    expect(error).to.be.instanceOf(Pkcs12Error)
    return (error as Error).message
  }
  throw new Error('expected a Pkcs12Error')
}

describe('readPkcs12 (PKCS#12 key and trust stores)', () => {
  it('reads a trust store keytool (Java 17) writes: the CA certificate, in PBES2/AES-256 encrypted contents', () => {
    const store = readPkcs12(fixture('truststore-keytool.p12'), 'store-secret')
    expect(store.keys).to.deep.equal([])
    expect(store.certificates.map(c => c.der)).to.deep.equal([derOf('ca.pem')])
  })

  it('reads a trust store without encryption or MAC with no password, as Java reads a trust store without one', () => {
    const store = readPkcs12(fixture('truststore-plain.p12'), undefined)
    expect(store.certificates.map(c => c.der)).to.deep.equal([derOf('ca.pem')])
  })

  for (const [name, what] of [
    ['keystore-keytool.p12', 'keytool (Java 17)'],
    ['keystore-openssl.p12', 'openssl 3 (PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC)'],
    ['keystore-3des.p12', 'openssl with PKCS#12 3DES and a SHA-1 MAC (Java 8 keys)']
  ] as const) {
    it(`reads a key store ${what} writes: the private key and the chain, tied by the local key id`, () => {
      const store = readPkcs12(fixture(name), 'store-secret')
      expect(store.keys).to.have.length(1)
      const [key] = store.keys
      expect(publicKeyOf(key!.pkcs8)).to.equal(CLIENT_PUBLIC_KEY)
      expect(store.certificates.map(c => c.der)).to.have.deep.members([derOf('client.pem'), derOf('ca.pem')])
      const leaf = store.certificates.find(c => c.localKeyId !== undefined && c.localKeyId.equals(key!.localKeyId!))
      expect(leaf?.der).to.deep.equal(derOf('client.pem'))
    })
  }

  it('refuses a wrong store password (the integrity MAC) and a wrong key password', () => {
    expect(failure(fixture('keystore-openssl.p12'), 'wrong')).to.equal('the password is wrong (the integrity check of the store failed)')
    expect(failure(fixture('keystore-3des.p12'), 'wrong')).to.equal('the password is wrong (the integrity check of the store failed)')
    expect(failure(fixture('keystore-keytool.p12'), 'store-secret', 'wrong')).to.equal(
      'the private key: could not be decrypted: the password is wrong'
    )
  })

  it('needs the password for encrypted contents', () => {
    expect(failure(fixture('truststore-keytool.p12'), undefined)).to.equal('its certificates are encrypted: the store password is needed')
  })

  it('refuses RC2 encryption (openssl -legacy, Java 8 certificates), naming the algorithm and what to do', () => {
    expect(failure(fixture('keystore-legacy.p12'), 'store-secret')).to.equal(
      "the certificates: encrypted with pbeWithSHAAnd40BitRC2-CBC, which Node's OpenSSL 3 does not offer (older keytool and openssl -legacy write it): re-create the store with keytool from Java 17+ or openssl 3 without -legacy, or use PEM"
    )
  })

  it('refuses what is not PKCS#12', () => {
    expect(failure(fixture('ca.pem'), 'x')).to.match(/^not a PKCS#12 file/)
    expect(failure(fixture('truststore.jks'), 'x')).to.match(/^not a PKCS#12 file/)
    expect(failure(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x02]), 'x')).to.match(/^not a PKCS#12 file/)
  })
})
