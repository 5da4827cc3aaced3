import { expect } from 'chai'
import { X509Certificate } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KafkaConfig } from 'kafkajs'
import { aclEntries } from '../src/acl-grants.js'
import { ClusterSecurity } from '../src/cluster-security.js'
import { KafkaLocalError } from '../src/kafka-local-error.js'
import { writeSecurityFiles } from '../src/security-config.js'
import { resolveSecurity, type SecurityOptions } from '../src/security-options.js'

describe('ClusterSecurity (files only, no broker)', () => {
  let dir: string

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cluster-security-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  async function security(options: SecurityOptions): Promise<ClusterSecurity> {
    const record = resolveSecurity(options, join(dir, 'security'))
    await writeSecurityFiles(record)
    return new ClusterSecurity(record, '127.0.0.1:9092')
  }

  it('gives SASL_SSL clients the CA and the admin credentials, in the shape kafkajs takes', async () => {
    const s = await security({ protocol: 'sasl_ssl', users: { alice: 'alice-pw' } })
    const options = s.clientOptions()
    expect(options).to.deep.equal({
      ssl: { ca: s.caPem },
      sasl: { mechanism: 'scram-sha-512', username: 'admin', password: s.adminPassword }
    })
    expect(s.sasl({ user: 'alice' })).to.deep.equal({ mechanism: 'scram-sha-512', username: 'alice', password: 'alice-pw' })
    const config: KafkaConfig = { brokers: ['127.0.0.1:9092'], ...options }
    expect(config.sasl?.mechanism).to.equal('scram-sha-512')
    expect(new X509Certificate(s.caPem).ca).to.equal(true)
    expect(s.describe()).to.equal('SASL_SSL, SASL SCRAM-SHA-512')
  })

  it('gives mTLS clients the admin certificate (CN admin), and issues more from the same CA', async () => {
    const s = await security({ protocol: 'ssl', mtls: true, authorizer: true })
    const ssl = s.ssl!
    expect(s.clientOptions()).to.deep.equal({ ssl })
    const ca = new X509Certificate(s.caPem)
    expect(new X509Certificate(ssl.cert!).subject).to.equal('CN=admin')
    const bob = new X509Certificate(s.issueClientCertificate('bob').cert)
    expect(bob.subject).to.equal('CN=bob')
    expect(bob.verify(ca.publicKey)).to.equal(true)
    expect(s.superUsers).to.deep.equal(['User:admin', 'User:kafka-local-broker', 'User:ANONYMOUS'])
  })

  it('makes unsecured tokens for any principal under OAUTHBEARER, and no TLS for sasl_plaintext', async () => {
    const s = await security({ protocol: 'sasl_plaintext', saslMechanisms: ['plain', 'oauthbearer'] })
    expect(s.ssl).to.equal(undefined)
    const sasl = s.sasl({ user: 'carol', mechanism: 'oauthbearer' })
    expect(sasl.mechanism).to.equal('oauthbearer')
    const token = await (sasl as { oauthBearerProvider: () => Promise<{ value: string }> }).oauthBearerProvider()
    expect(JSON.parse(Buffer.from(token.value.split('.')[1]!, 'base64url').toString())).to.include({ sub: 'carol' })
    expect(s.clientOptions()).to.deep.equal({ sasl: { mechanism: 'plain', username: 'admin', password: s.adminPassword } })
  })

  it('refuses SASL it does not have: a mechanism not enabled, an unknown user, SASL on ssl', async () => {
    const s = await security({ protocol: 'sasl_ssl', saslMechanisms: ['plain'] })
    expect(() => s.sasl({ mechanism: 'scram-sha-256' })).to.throw(KafkaLocalError, 'SASL scram-sha-256 is not enabled')
    expect(() => s.sasl({ user: 'mallory' })).to.throw(KafkaLocalError, 'no SASL user "mallory"')
    const tls = await security({ protocol: 'ssl' })
    expect(() => tls.sasl()).to.throw(KafkaLocalError, 'there is no SASL')
    const error = await tls.grant('bob', []).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(KafkaLocalError).and.to.have.property('code', 'INVALID_OPTION')
  })

  it('writes the PEM files, the PKCS12 stores and a Java client config, keys readable by the owner only', async () => {
    const s = await security({ protocol: 'sasl_ssl', mtls: true })
    for (const path of Object.values(s.files)) expect((await stat(path)).size, path).to.be.greaterThan(0)
    expect((await stat(s.files.adminKeyPem)).mode & 0o077).to.equal(0)
    expect((await stat(s.files.caKeyPem)).mode & 0o077).to.equal(0)
    expect(await readFile(s.files.clientProperties, 'utf8')).to.contain(`ssl.keystore.location=${s.files.adminKeystore}`)
  })
})

describe('aclEntries', () => {
  it('makes one kafkajs ACL entry per operation, for User:<name> from any host', () => {
    expect(
      aclEntries('alice', [
        { resource: 'topic', name: 'in', operations: ['read', 'describe'] },
        { resource: 'group', name: 'app-', patternType: 'prefixed', operations: ['read'] },
        { resource: 'cluster', operations: ['idempotent-write'], permission: 'deny' }
      ])
    ).to.deep.equal([
      { resourceType: 2, resourceName: 'in', resourcePatternType: 3, principal: 'User:alice', host: '*', operation: 3, permissionType: 3 },
      { resourceType: 2, resourceName: 'in', resourcePatternType: 3, principal: 'User:alice', host: '*', operation: 8, permissionType: 3 },
      {
        resourceType: 3,
        resourceName: 'app-',
        resourcePatternType: 4,
        principal: 'User:alice',
        host: '*',
        operation: 3,
        permissionType: 3
      },
      {
        resourceType: 4,
        resourceName: 'kafka-cluster',
        resourcePatternType: 3,
        principal: 'User:alice',
        host: '*',
        operation: 12,
        permissionType: 2
      }
    ])
    expect(aclEntries('User:bob', [{ resource: 'transactional-id', name: 't', operations: ['write'] }])[0]).to.include({
      principal: 'User:bob',
      resourceType: 5
    })
  })

  it('refuses a resource without a name and unknown operations', () => {
    expect(() => aclEntries('a', [{ resource: 'topic', operations: ['read'] }])).to.throw(KafkaLocalError, 'needs its name')
    expect(() => aclEntries('a', [{ resource: 'topic', name: 't', operations: ['steal' as never] }])).to.throw(KafkaLocalError, '"steal"')
  })
})
