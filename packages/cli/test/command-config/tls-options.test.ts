/**
 * The ssl.* keys of a command config as Node TLS options, each proven by a real TLS handshake
 * with a local server (the fixtures' CA, a server certificate for localhost, mTLS when asked),
 * connecting as kafkajs does (`tls.connect({ host, port, servername: host, ...ssl })`).
 */
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { connect, createServer, type Server, type TLSSocket } from 'node:tls'
import { fileURLToPath } from 'node:url'
import { commandConfig } from '../../src/command-config/command-config.js'
import { CommandConfigError } from '../../src/command-config/command-config-error.js'
import { ConfigEntries } from '../../src/command-config/config-entries.js'
import { parseJavaProperties } from '../../src/command-config/java-properties.js'

const TLS = fileURLToPath(new URL('../fixtures/tls/', import.meta.url))
const pem = (name: string): string => readFileSync(`${TLS}${name}`, 'utf8')
/** The ssl options of a config text (store paths relative to the fixtures, as Java resolves them against the working directory). */
const ssl = async (text: string): Promise<Record<string, unknown>> => {
  const config = await commandConfig(new ConfigEntries('client.properties', parseJavaProperties(text, 'client.properties')), TLS)
  return config.ssl as Record<string, unknown>
}
const refused = async (text: string): Promise<CommandConfigError> => {
  try {
    await ssl(text)
  } catch (error) {
    expect(error).to.be.instanceOf(CommandConfigError)
    return error as CommandConfigError
  }
  throw new Error('expected a CommandConfigError')
}
/** A properties value spread over continuation lines, as a PEM is put inline in a properties file. */
const inline = (text: string): string => text.trim().split('\n').join(' \\\n  ')

interface Handshake {
  readonly ok: boolean
  readonly error?: string
  readonly clientCertificate?: string
}

describe('command config ssl.* keys as Node TLS options (real handshakes)', function () {
  this.timeout(20_000)
  let server: Server
  let port = 0
  let serverCert = 'server'
  let requireClientCert = false

  before(async () => {
    server = createServer({ requestCert: true, rejectUnauthorized: false, ca: pem('ca.pem'), ...keyPair('server') })
    server.on('secureConnection', (socket: TLSSocket) => {
      const peer = socket.getPeerCertificate()
      if (requireClientCert && !socket.authorized) {
        socket.end('refused\n')
        return
      }
      socket.end(`hello ${peer?.subject?.CN ?? 'anonymous'}\n`)
    })
    server.on('tlsClientError', () => undefined)
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  after(() => new Promise<void>(resolve => server.close(() => resolve())))
  beforeEach(() => {
    serverCert = 'server'
    requireClientCert = false
    server.setSecureContext({ requestCert: true, rejectUnauthorized: false, ca: pem('ca.pem'), ...keyPair('server') } as never)
  })

  function keyPair(name: string): { cert: string; key: string } {
    return { cert: pem(`${name}.pem`), key: pem(`${name}-key.pem`) }
  }
  function present(name: string): void {
    serverCert = name
    server.setSecureContext({ requestCert: true, rejectUnauthorized: false, ca: pem('ca.pem'), ...keyPair(serverCert) } as never)
  }
  async function handshake(options: Record<string, unknown>): Promise<Handshake> {
    return await new Promise(resolve => {
      const socket = connect({ host: 'localhost', port, servername: 'localhost', ...options })
      let data = ''
      socket.on('data', chunk => (data += chunk))
      socket.on('end', () => resolve({ ok: true, clientCertificate: data.trim().replace(/^hello /, '') }))
      socket.on('error', error => resolve({ ok: false, error: (error as NodeJS.ErrnoException).code ?? error.message }))
    })
  }

  it("without a trust store: Node's default CAs (as Java's default trust store), so the test CA is not trusted", async () => {
    const options = await ssl('security.protocol=SSL\n')
    expect(options).to.deep.equal({})
    expect(await handshake(options)).to.deep.include({ ok: false, error: 'SELF_SIGNED_CERT_IN_CHAIN' })
  })

  it("ssl.truststore.type=PEM with ssl.truststore.location: trusts the file's certificates", async () => {
    const options = await ssl('security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=ca.pem\n')
    expect(options).to.deep.equal({ ca: [pem('ca.pem')] })
    expect(await handshake(options)).to.deep.equal({ ok: true, clientCertificate: 'anonymous' })
  })

  it('ssl.truststore.type=PEM with ssl.truststore.certificates on continuation lines', async () => {
    const options = await ssl(`security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.certificates=${inline(pem('ca.pem'))}\n`)
    expect(options.ca).to.deep.equal([pem('ca.pem')])
    expect((await handshake(options)).ok).to.equal(true)
  })

  it("ssl.truststore.type=PKCS12: trusts the store's certificates (keytool's encrypted store with its password; a plain one without)", async () => {
    const keytool = await ssl(
      'security.protocol=SSL\nssl.truststore.type=PKCS12\nssl.truststore.location=truststore-keytool.p12\nssl.truststore.password=store-secret\n'
    )
    expect(keytool.ca).to.deep.equal([pem('ca.pem')])
    expect((await handshake(keytool)).ok).to.equal(true)
    // Kafka's default type (JKS) reads PKCS12 in Java 9+; so does the CLI.
    const untyped = await ssl('security.protocol=SSL\nssl.truststore.location=truststore-plain.p12\n')
    expect(untyped.ca).to.deep.equal([pem('ca.pem')])
  })

  it("ssl.keystore.type=PEM with ssl.keystore.location (key and chain in one file): mTLS as the certificate's CN", async () => {
    requireClientCert = true
    const options = await ssl(
      'security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=ca.pem\nssl.keystore.type=PEM\nssl.keystore.location=client-bundle.pem\n'
    )
    expect(Object.keys(options).sort()).to.deep.equal(['ca', 'cert', 'key'])
    expect(options.cert).to.equal(pem('client.pem') + pem('ca.pem'))
    expect(await handshake(options)).to.deep.equal({ ok: true, clientCertificate: 'client' })
  })

  it('ssl.keystore.key + ssl.keystore.certificate.chain inline, the key encrypted with ssl.key.password (decrypted here: no passphrase)', async () => {
    requireClientCert = true
    const options = await ssl(
      [
        'security.protocol=SSL',
        'ssl.truststore.type=PEM',
        'ssl.truststore.location=ca.pem',
        'ssl.keystore.type=PEM',
        `ssl.keystore.key=${inline(pem('client-encrypted-key.pem'))}`,
        `ssl.keystore.certificate.chain=${inline(pem('client.pem'))}`,
        'ssl.key.password=key-secret',
        ''
      ].join('\n')
    )
    expect(options.key).to.match(/^-----BEGIN PRIVATE KEY-----\n/)
    expect(options).not.to.have.property('passphrase')
    expect(await handshake(options)).to.deep.equal({ ok: true, clientCertificate: 'client' })
  })

  it("ssl.keystore.type=PKCS12 with its password: mTLS with the store's key and chain (keytool's, openssl's and 3DES stores)", async () => {
    requireClientCert = true
    for (const store of ['keystore-keytool.p12', 'keystore-openssl.p12', 'keystore-3des.p12']) {
      const options = await ssl(
        `security.protocol=SSL\nssl.truststore.type=PKCS12\nssl.truststore.location=truststore-keytool.p12\nssl.truststore.password=store-secret\nssl.keystore.type=PKCS12\nssl.keystore.location=${store}\nssl.keystore.password=store-secret\nssl.key.password=store-secret\n`
      )
      expect(options.cert, store).to.equal(pem('client.pem') + pem('ca.pem'))
      expect(await handshake(options), store).to.deep.equal({ ok: true, clientCertificate: 'client' })
    }
  })

  it('checks the host name by default and with https; ssl.endpoint.identification.algorithm= (empty) skips only that check', async () => {
    present('wrong-host')
    const base = 'security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=ca.pem\n'
    expect(await handshake(await ssl(base))).to.deep.include({ ok: false, error: 'ERR_TLS_CERT_ALTNAME_INVALID' })
    expect(await handshake(await ssl(`${base}ssl.endpoint.identification.algorithm=HTTPS\n`))).to.deep.include({ ok: false })
    const noHostCheck = await ssl(`${base}ssl.endpoint.identification.algorithm=\n`)
    expect(noHostCheck).to.have.property('checkServerIdentity')
    expect((await handshake(noHostCheck)).ok).to.equal(true)
    // The chain is still verified.
    expect(await handshake(await ssl('security.protocol=SSL\nssl.endpoint.identification.algorithm=\n'))).to.deep.include({ ok: false })
    expect((await refused(`${base}ssl.endpoint.identification.algorithm=ldaps\n`)).message).to.equal(
      "client.properties: ssl.endpoint.identification.algorithm (line 4) must be https (check the host name, the default) or empty (do not), got 'ldaps'"
    )
  })

  describe("refuses what Kafka's DefaultSslEngineFactory refuses, and what cannot be read, naming the key", () => {
    const cases: Array<[string, string, string]> = [
      [
        'ssl.truststore.certificates without type PEM',
        `ssl.truststore.certificates=${inline(pem('ca.pem'))}`,
        'ssl.truststore.certificates (line 2) needs ssl.truststore.type=PEM'
      ],
      [
        'a trust store location and certificates',
        'ssl.truststore.type=PEM\nssl.truststore.location=ca.pem\nssl.truststore.certificates=x',
        'ssl.truststore.certificates (line 4) and ssl.truststore.location are both set; keep one'
      ],
      [
        'a password for a PEM trust store',
        'ssl.truststore.type=PEM\nssl.truststore.location=ca.pem\nssl.truststore.password=p',
        'ssl.truststore.password (line 4) cannot be given for a PEM trust store'
      ],
      [
        'a trust store password without a store',
        'ssl.truststore.password=p',
        'ssl.truststore.password (line 2) is set without ssl.truststore.location'
      ],
      [
        'a PEM file without the PEM type',
        'ssl.truststore.location=ca.pem',
        "ssl.truststore.location (line 2) is a PEM file: set ssl.truststore.type=PEM (Kafka's default type, JKS, does not read PEM)"
      ],
      [
        'a JKS store',
        'ssl.truststore.type=JKS\nssl.truststore.location=truststore.jks\nssl.truststore.password=store-secret',
        'ssl.truststore.location (line 3) is a JKS store, which the CLI cannot read: convert it (keytool -importkeystore -deststoretype PKCS12) or export PEM files, and set the type'
      ],
      [
        'a JKS file under another type',
        'ssl.truststore.type=PKCS12\nssl.truststore.location=truststore.jks',
        'ssl.truststore.location (line 3) is a JKS store'
      ],
      [
        'an unknown store type',
        'ssl.truststore.type=BCFKS\nssl.truststore.location=ca.pem',
        "ssl.truststore.type (line 2) must be PEM or PKCS12, got 'BCFKS'"
      ],
      [
        'a missing file',
        'ssl.truststore.type=PEM\nssl.truststore.location=nowhere.pem',
        'ssl.truststore.location (line 3) cannot be read: ENOENT'
      ],
      [
        'a wrong trust store password',
        'ssl.truststore.location=truststore-keytool.p12\nssl.truststore.password=wrong',
        'ssl.truststore.password (line 3) (PKCS12 trust store): the password is wrong (the integrity check of the store failed)'
      ],
      [
        'an encrypted trust store without its password',
        'ssl.truststore.type=PKCS12\nssl.truststore.location=truststore-keytool.p12',
        'ssl.truststore.password (PKCS12 trust store): its certificates are encrypted: the store password is needed'
      ],
      [
        'a PEM trust store without certificates',
        'ssl.truststore.type=PEM\nssl.truststore.location=client-key.pem',
        'ssl.truststore.location (line 3) holds no certificate'
      ],
      [
        'a PKCS12 key store without its password',
        'ssl.keystore.type=PKCS12\nssl.keystore.location=keystore-keytool.p12',
        'ssl.keystore.location (line 3) is a PKCS12 key store: ssl.keystore.password is needed'
      ],
      [
        'a wrong key password',
        'ssl.keystore.location=keystore-keytool.p12\nssl.keystore.password=store-secret\nssl.key.password=wrong',
        'ssl.key.password (line 4) (PKCS12 key store): the private key: could not be decrypted: the password is wrong'
      ],
      [
        'a legacy RC2 key store',
        'ssl.keystore.location=keystore-legacy.p12\nssl.keystore.password=store-secret',
        'ssl.keystore.location (line 2) (PKCS12 key store): the certificates: encrypted with pbeWithSHAAnd40BitRC2-CBC'
      ],
      [
        'a key store password for a PEM key store',
        'ssl.keystore.type=PEM\nssl.keystore.location=client-bundle.pem\nssl.keystore.password=p',
        'ssl.keystore.password (line 4) cannot be given for a PEM key store (only ssl.key.password, for an encrypted key)'
      ],
      [
        'an inline key without the PEM type',
        `ssl.keystore.key=${inline(pem('client-key.pem'))}\nssl.keystore.certificate.chain=x`,
        'ssl.keystore.key (line 2) needs ssl.keystore.type=PEM'
      ],
      [
        'an inline key without its chain',
        `ssl.keystore.type=PEM\nssl.keystore.key=${inline(pem('client-key.pem'))}`,
        'ssl.keystore.key (line 3) is set without ssl.keystore.certificate.chain'
      ],
      [
        'a chain without a key',
        `ssl.keystore.type=PEM\nssl.keystore.certificate.chain=${inline(pem('client.pem'))}`,
        'ssl.keystore.certificate.chain (line 3) is set without ssl.keystore.key'
      ],
      [
        'an inline key and a location',
        `ssl.keystore.type=PEM\nssl.keystore.location=client-bundle.pem\nssl.keystore.key=${inline(pem('client-key.pem'))}\nssl.keystore.certificate.chain=${inline(pem('client.pem'))}`,
        'ssl.keystore.key (line 4) and ssl.keystore.location are both set; keep one'
      ],
      [
        'a key password without a key store',
        'ssl.key.password=p',
        'ssl.key.password (line 2) is set without a key store (ssl.keystore.location or ssl.keystore.key)'
      ],
      [
        'an encrypted PEM key without ssl.key.password',
        `ssl.keystore.type=PEM\nssl.keystore.key=${inline(pem('client-encrypted-key.pem'))}\nssl.keystore.certificate.chain=${inline(pem('client.pem'))}`,
        'ssl.keystore.key (line 3) holds an encrypted private key: ssl.key.password is needed'
      ],
      [
        'a wrong PEM key password',
        `ssl.keystore.type=PEM\nssl.keystore.key=${inline(pem('client-encrypted-key.pem'))}\nssl.keystore.certificate.chain=${inline(pem('client.pem'))}\nssl.key.password=wrong`,
        'ssl.keystore.key (line 3) holds a private key that ssl.key.password does not decrypt'
      ],
      [
        'a PEM key store without a key',
        'ssl.keystore.type=PEM\nssl.keystore.location=ca.pem',
        'ssl.keystore.location (line 3) holds 0 private keys; the client needs exactly one'
      ],
      [
        'a key that does not match its certificate',
        `ssl.keystore.type=PEM\nssl.keystore.key=${inline(pem('server-key.pem'))}\nssl.keystore.certificate.chain=${inline(pem('client.pem'))}`,
        "ssl.keystore.key (line 3) is refused by Node's TLS: "
      ],
      [
        'a PEM block that is not base64',
        'ssl.truststore.type=PEM\nssl.truststore.certificates=-----BEGIN CERTIFICATE----- M!IC -----END CERTIFICATE-----',
        'ssl.truststore.certificates (line 3) a PEM CERTIFICATE block is not valid base64'
      ]
    ]
    for (const [what, lines, message] of cases) {
      it(what, async () => {
        const error = await refused(`security.protocol=SSL\n${lines}\n`)
        expect(error.message).to.include(`client.properties: ${message}`)
        expect(error.exitCode).to.equal(2)
        for (const secret of ['store-secret', 'key-secret', 'MIG', 'BEGIN']) expect(error.message).not.to.include(secret)
      })
    }
  })
})
