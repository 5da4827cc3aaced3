import { expect } from 'chai'
import { brokerProperties, type BrokerNode } from '../src/broker-config.js'
import { resolveKafkaVersion } from '../src/kafka-version.js'
import { javaClientProperties, scramFormatArgs, securityProperties } from '../src/security-config.js'
import { resolveSecurity } from '../src/security-options.js'

const node: BrokerNode = {
  nodeId: 1,
  port: 19092,
  controllerPort: 19093,
  dataDir: '/tmp/n1/data',
  configPath: '/tmp/n1/server.properties',
  logPath: '/tmp/n1/broker.log'
}

describe('security config', () => {
  const saslSsl = resolveSecurity(
    { protocol: 'sasl_ssl', saslMechanisms: ['scram-sha-512', 'plain', 'oauthbearer'], authorizer: true, users: { alice: 'alice-pw' } },
    '/run/security'
  )
  const admin = saslSsl.users.admin!

  it('puts the client listener (named after its protocol) on the client port, inter-broker too, the controller on PLAINTEXT', () => {
    const props = brokerProperties(node, [node], resolveKafkaVersion('4.1.1'), {}, saslSsl)
    expect(props).to.include({
      listeners: 'SASL_SSL://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093',
      'advertised.listeners': 'SASL_SSL://127.0.0.1:19092',
      'inter.broker.listener.name': 'SASL_SSL',
      'listener.security.protocol.map': 'SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT'
    })
    expect(brokerProperties(node, [node], resolveKafkaVersion('4.1.1'), { overrides: { 'super.users': 'User:x' } }, saslSsl)).to.include({
      'super.users': 'User:x'
    })
  })

  it('enables the mechanisms on the listener, the first between brokers, with the admin login in every JAAS entry', () => {
    const props = securityProperties(saslSsl)
    expect(props).to.include({
      'listener.name.sasl_ssl.sasl.enabled.mechanisms': 'SCRAM-SHA-512,PLAIN,OAUTHBEARER',
      'sasl.mechanism.inter.broker.protocol': 'SCRAM-SHA-512',
      'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config': `org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="${admin}";`,
      'listener.name.sasl_ssl.plain.sasl.jaas.config': `org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="${admin}" user_admin="${admin}" user_alice="alice-pw";`,
      'listener.name.sasl_ssl.oauthbearer.sasl.jaas.config':
        'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="admin";'
    })
  })

  it('configures PKCS12 stores, the client-auth mode and CN principals for TLS', () => {
    expect(securityProperties(saslSsl)).to.include({
      'ssl.keystore.type': 'PKCS12',
      'ssl.keystore.location': '/run/security/broker.p12',
      'ssl.keystore.password': saslSsl.storePassword,
      'ssl.truststore.location': '/run/security/truststore.p12',
      'ssl.client.auth': 'none',
      'ssl.principal.mapping.rules': 'RULE:^CN=([^,]+)$/$1/,DEFAULT'
    })
    const mtls = securityProperties(resolveSecurity({ protocol: 'ssl', mtls: true }, '/run/security'))
    expect(mtls).to.include({ 'ssl.client.auth': 'required' })
    expect(mtls).to.not.have.any.keys('sasl.mechanism.inter.broker.protocol', 'authorizer.class.name')
    expect(securityProperties(resolveSecurity({ protocol: 'sasl_plaintext' }, '/x'))).to.not.have.any.keys('ssl.keystore.location')
  })

  it('turns on StandardAuthorizer with admin, the brokers and the controller listener as super users', () => {
    expect(securityProperties(saslSsl)).to.include({
      'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      'super.users': 'User:admin;User:kafka-local-broker;User:ANONYMOUS',
      'allow.everyone.if.no.acl.found': 'false'
    })
  })

  it('formats every user for every SCRAM mechanism, and nothing for other mechanisms', () => {
    const both = resolveSecurity(
      { protocol: 'sasl_plaintext', saslMechanisms: ['plain', 'scram-sha-256', 'scram-sha-512'], users: { bob: 'bob-pw' } },
      '/x'
    )
    expect(scramFormatArgs(both)).to.deep.equal([
      '--add-scram',
      `SCRAM-SHA-256=[name=admin,password=${both.users.admin}]`,
      '--add-scram',
      'SCRAM-SHA-256=[name=bob,password=bob-pw]',
      '--add-scram',
      `SCRAM-SHA-512=[name=admin,password=${both.users.admin}]`,
      '--add-scram',
      'SCRAM-SHA-512=[name=bob,password=bob-pw]'
    ])
    expect(scramFormatArgs(resolveSecurity({ protocol: 'sasl_ssl', saslMechanisms: ['plain', 'oauthbearer'] }, '/x'))).to.deep.equal([])
    expect(scramFormatArgs(undefined)).to.deep.equal([])
  })

  it('writes a Java client config for the admin', () => {
    expect(javaClientProperties(saslSsl).split('\n')).to.include.members([
      'security.protocol=SASL_SSL',
      'sasl.mechanism=SCRAM-SHA-512',
      `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="${admin}";`,
      'ssl.truststore.type=PKCS12',
      'ssl.truststore.location=/run/security/truststore.p12'
    ])
    const mtls = resolveSecurity({ protocol: 'ssl', mtls: true }, '/run/security')
    expect(javaClientProperties(mtls).split('\n')).to.include.members([
      'security.protocol=SSL',
      'ssl.keystore.location=/run/security/admin.p12',
      `ssl.keystore.password=${mtls.storePassword}`
    ])
  })
})
