import { expect } from 'chai'
import { X509Certificate, createPrivateKey } from 'node:crypto'
import { createCertificateAuthority, issueCertificate } from '../src/certificates.js'
import { handshake } from './tls-handshake.js'

describe('certificates', () => {
  const ca = createCertificateAuthority({ commonName: 'test CA' })
  const server = issueCertificate(ca, { commonName: 'broker', altNames: ['127.0.0.1', 'localhost'] })

  it('makes a self-signed CA certificate', () => {
    const cert = new X509Certificate(ca.cert)
    expect(cert.ca).to.equal(true)
    expect(cert.subject).to.equal('CN=test CA')
    expect(cert.issuer).to.equal('CN=test CA')
    expect(cert.verify(cert.publicKey)).to.equal(true)
  })

  it('issues a certificate signed by the CA, for its alt names', () => {
    const cert = new X509Certificate(server.cert)
    const authority = new X509Certificate(ca.cert)
    expect(cert.ca).to.equal(false)
    expect(cert.subject).to.equal('CN=broker')
    expect(cert.checkIssued(authority)).to.equal(true)
    expect(cert.verify(authority.publicKey)).to.equal(true)
    expect(cert.checkIP('127.0.0.1')).to.equal('127.0.0.1')
    expect(cert.checkHost('localhost')).to.equal('localhost')
    expect(cert.checkIP('10.0.0.1')).to.equal(undefined)
    expect(cert.checkPrivateKey(createPrivateKey(server.key))).to.equal(true)
  })

  it('serves TLS that a client trusting the CA accepts for 127.0.0.1, and one trusting another CA refuses', async () => {
    const serverOptions = { cert: server.cert, key: server.key }
    expect(await handshake(serverOptions, { ca: ca.cert })).to.equal(undefined)
    const other = createCertificateAuthority({ commonName: 'other CA' })
    const refused = (await handshake(serverOptions, { ca: other.cert })) as NodeJS.ErrnoException | undefined
    expect(refused?.code).to.equal('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
  })

  it('issues client certificates that a server requiring ones from the CA accepts', async () => {
    const client = issueCertificate(ca, { commonName: 'alice' })
    const other = issueCertificate(createCertificateAuthority({ commonName: 'other CA' }), { commonName: 'alice' })
    const serverOptions = { cert: server.cert, key: server.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true }
    expect(await handshake(serverOptions, { ca: ca.cert, ...client })).to.equal(undefined)
    expect(await handshake(serverOptions, { ca: ca.cert, ...other })).to.be.instanceOf(Error)
  })
})
