import { expect } from 'chai'
import { KafkaLocalError } from '../src/kafka-local-error.js'
import { resolveSecurity, type SecurityOptions } from '../src/security-options.js'

function refusal(options: SecurityOptions): KafkaLocalError {
  try {
    resolveSecurity(options, '/tmp/security')
  } catch (error) {
    expect(error).to.be.instanceOf(KafkaLocalError)
    expect((error as KafkaLocalError).code).to.equal('INVALID_OPTION')
    return error as KafkaLocalError
  }
  expect.fail(`${JSON.stringify(options)} was accepted`)
}

describe('resolveSecurity', () => {
  it('defaults SASL to SCRAM-SHA-512, adds admin with a generated password, and keeps the given users', () => {
    const record = resolveSecurity({ protocol: 'sasl_ssl', users: { alice: 'alice-secret' } }, '/tmp/security')
    expect(record).to.include({ protocol: 'sasl_ssl', mtls: false, authorizer: false, dir: '/tmp/security' })
    expect(record.saslMechanisms).to.deep.equal(['scram-sha-512'])
    expect(Object.keys(record.users)).to.deep.equal(['admin', 'alice'])
    expect(record.users.admin).to.match(/^[0-9a-f]{24}$/)
    expect(record.users.alice).to.equal('alice-secret')
    expect(record.storePassword).to.match(/^[0-9a-f]{24}$/)
    expect(resolveSecurity({ protocol: 'sasl_ssl' }, '/x').users.admin).to.not.equal(record.users.admin)
  })

  it('has no SASL users or mechanisms for ssl', () => {
    const record = resolveSecurity({ protocol: 'ssl', mtls: true, authorizer: true }, '/x')
    expect(record.saslMechanisms).to.deep.equal([])
    expect(record.users).to.deep.equal({})
  })

  it('refuses mTLS without TLS', () => {
    expect(refusal({ protocol: 'sasl_plaintext', mtls: true }).message).to.contain('mtls needs TLS')
  })

  it('refuses SASL mechanisms and users on an ssl listener', () => {
    expect(refusal({ protocol: 'ssl', saslMechanisms: ['plain'] }).message).to.contain('saslMechanisms needs a SASL protocol')
    expect(refusal({ protocol: 'ssl', mtls: true, users: { alice: 'pw' } }).message).to.contain('issue a client certificate')
  })

  it('refuses the authorizer when clients are anonymous (ssl without mTLS)', () => {
    expect(refusal({ protocol: 'ssl', authorizer: true }).message).to.contain('needs authenticated clients')
  })

  it('refuses unknown protocols and mechanisms, none, and a mechanism twice', () => {
    expect(refusal({ protocol: 'tls' as never }).message).to.contain('security.protocol must be one of')
    expect(refusal({ protocol: 'sasl_ssl', saslMechanisms: ['gssapi' as never] }).message).to.contain('"gssapi"')
    expect(refusal({ protocol: 'sasl_ssl', saslMechanisms: [] }).message).to.contain('at least one')
    expect(refusal({ protocol: 'sasl_ssl', saslMechanisms: ['plain', 'plain'] }).message).to.contain('twice')
  })

  it('refuses admin as a user, and names or passwords that would break the JAAS or --add-scram syntax', () => {
    expect(refusal({ protocol: 'sasl_ssl', users: { admin: 'pw' } }).message).to.contain('super user')
    expect(refusal({ protocol: 'sasl_ssl', users: { 'al ice': 'pw' } }).message).to.contain('"al ice"')
    expect(refusal({ protocol: 'sasl_ssl', users: { alice: 'a"b' } }).message).to.contain('password of "alice"')
    expect(refusal({ protocol: 'sasl_ssl', users: { alice: 'a,b' } }).message).to.contain('password of "alice"')
    expect(refusal({ protocol: 'sasl_ssl', users: { alice: '' } }).message).to.contain('password of "alice"')
  })
})
