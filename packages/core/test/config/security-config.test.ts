/**
 * The checks of `ssl` and `sasl` (checkSslConfig, checkSaslConfig, and through resolveStreamsConfig):
 * one SASL shape per mechanism, an unknown or misspelt option named by its key, the mechanisms no
 * adapter has refused with what to use instead, TLS material Node cannot load refused at once.
 */
import { expect } from 'chai'
import { ConfigError } from '../../src/errors.js'
import { checkSaslConfig, checkSslConfig } from '../../src/config/security-config.js'
import { resolveStreamsConfig } from '../../src/config/streams-config.js'
import { TEST_CERT, TEST_KEY } from './fixtures/tls-material.js'

function configError(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
}

describe('security config', () => {
  describe('sasl', () => {
    it('takes each mechanism with its options (any case of the mechanism)', () => {
      for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512', 'SCRAM-SHA-512']) {
        expect(() => checkSaslConfig({ mechanism, username: 'u', password: 'p' })).not.to.throw()
      }
      expect(() => checkSaslConfig({ mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: 't' }) })).not.to.throw()
      expect(() => checkSaslConfig(undefined)).not.to.throw()
    })

    it('names an unknown or misspelt option by its key, with the options of the mechanism', () => {
      const misspelt = configError(() => checkSaslConfig({ mechanism: 'scram-sha-512', username: 'u', passwrd: 'p' }))
      expect(misspelt.key).to.equal('sasl.passwrd')
      expect(misspelt.message).to.include('mechanism, username, password')
      expect(configError(() => checkSaslConfig({ mechanism: 'plain', user: 'u', password: 'p' })).key).to.equal('sasl.user')
      const token = configError(() => checkSaslConfig({ mechanism: 'oauthbearer', token: 't' }))
      expect(token.key).to.equal('sasl.token')
      expect(token.message).to.include('oauthBearerProvider')
      // Through the StreamsConfig too.
      expect(
        configError(() => resolveStreamsConfig({ sasl: { mechanism: 'plain', username: 'u', password: 'p', authzid: 'x' } as never })).key
      ).to.equal('sasl.authzid')
    })

    it('names a missing or empty credential', () => {
      expect(configError(() => checkSaslConfig({ mechanism: 'scram-sha-256', username: 'u' })).key).to.equal('sasl.password')
      expect(configError(() => checkSaslConfig({ mechanism: 'plain', username: '', password: 'p' })).key).to.equal('sasl.username')
      expect(configError(() => checkSaslConfig({ mechanism: 'oauthbearer' })).key).to.equal('sasl.oauthBearerProvider')
      expect(configError(() => checkSaslConfig({ username: 'u', password: 'p' })).key).to.equal('sasl.mechanism')
      expect(configError(() => checkSaslConfig('scram')).key).to.equal('sasl')
    })

    it('refuses GSSAPI and MSK IAM, saying what to use instead', () => {
      const kerberos = configError(() => checkSaslConfig({ mechanism: 'GSSAPI' }))
      expect(kerberos.key).to.equal('sasl.mechanism')
      expect(kerberos.message).to.include('Kerberos').and.include('SCRAM-SHA-512').and.include('mTLS')
      for (const mechanism of ['aws', 'AWS_MSK_IAM']) {
        const iam = configError(() => checkSaslConfig({ mechanism, accessKeyId: 'a', secretAccessKey: 's' }))
        expect(iam.key).to.equal('sasl.mechanism')
        expect(iam.message).to.include('aws-msk-iam-sasl-signer-js').and.include('9098').and.include('SCRAM-SHA-512 on port 9096')
      }
      expect(configError(() => checkSaslConfig({ mechanism: 'digest-md5' })).message).to.include('Unknown SASL mechanism')
    })
  })

  describe('ssl', () => {
    it('takes true, false and loadable TLS options', () => {
      for (const ssl of [undefined, true, false, { ca: TEST_CERT }, { ca: [Buffer.from(TEST_CERT)], cert: TEST_CERT, key: TEST_KEY }]) {
        expect(() => checkSslConfig(ssl)).not.to.throw()
      }
      expect(() => checkSslConfig({ servername: 'broker.example.com', rejectUnauthorized: true })).not.to.throw()
    })

    it('names an unknown or misspelt option, and a value of the wrong type', () => {
      expect(configError(() => checkSslConfig({ rejectUnauthorised: false })).key).to.equal('ssl.rejectUnauthorised')
      expect(configError(() => checkSslConfig({ rejectUnauthorized: 'no' })).key).to.equal('ssl.rejectUnauthorized')
      expect(configError(() => checkSslConfig({ passphrase: 1 })).key).to.equal('ssl.passphrase')
      expect(configError(() => resolveStreamsConfig({ ssl: { caFile: '/etc/ca.pem' } as never })).key).to.equal('ssl.caFile')
      expect(configError(() => checkSslConfig('yes')).key).to.equal('ssl')
    })

    it('refuses a file name where PEM text belongs (Node would ignore it), a certificate without its key, and material Node cannot load', () => {
      const path = configError(() => checkSslConfig({ ca: '/etc/kafka/ca.pem' }))
      expect(path.key).to.equal('ssl.ca')
      expect(path.message).to.include('not a file name')
      expect(configError(() => checkSslConfig({ ca: TEST_CERT, cert: TEST_CERT })).key).to.equal('ssl.key')
      const broken = configError(() => checkSslConfig({ cert: TEST_CERT, key: TEST_KEY.replace(/[A-Za-z]{20}/, 'x') }))
      expect(broken.key).to.equal('ssl')
      expect(broken.message).to.include('cannot be loaded')
      expect(broken.message).not.to.include(TEST_KEY.split('\n')[1]!)
    })
  })
})
