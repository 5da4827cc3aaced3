import { expect } from 'chai'
import { createSecureContext } from 'node:tls'
import { createCertificateAuthority, issueCertificate } from '../src/certificates.js'
import { pkcs12KeyStore, pkcs12TrustStore } from '../src/pkcs12.js'
import { handshake } from './tls-handshake.js'

describe('pkcs12', () => {
  const ca = createCertificateAuthority({ commonName: 'test CA' })
  const server = issueCertificate(ca, { commonName: 'broker', altNames: ['127.0.0.1'] })
  const keyStore = pkcs12KeyStore({ alias: 'broker', key: server.key, chain: [server.cert, ca.cert], password: 'store-secret' })

  it('writes a key store whose MAC and shrouded key open with the password only', () => {
    expect(() => createSecureContext({ pfx: keyStore, passphrase: 'store-secret' })).to.not.throw()
    expect(() => createSecureContext({ pfx: keyStore, passphrase: 'wrong' })).to.throw(/mac verify failure/)
  })

  it('holds the key and its chain: a TLS server made from it alone is trusted through the CA', async () => {
    expect(await handshake({ pfx: keyStore, passphrase: 'store-secret' }, { ca: ca.cert })).to.equal(undefined)
  })

  it('writes a trust store that opens with the password only, holding no private key', () => {
    const trustStore = pkcs12TrustStore({ alias: 'ca', ca: ca.cert, password: 'trust-secret' })
    expect(() => createSecureContext({ pfx: trustStore, passphrase: 'wrong' })).to.throw(/mac verify failure/)
    // Past the MAC, Node finds no key to serve with (Java reads the certificate as a trusted entry: the broker tests).
    expect(() => createSecureContext({ pfx: trustStore, passphrase: 'trust-secret' })).to.throw(/Unable to load private key/)
  })
})
