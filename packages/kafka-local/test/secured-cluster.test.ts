import { expect } from 'chai'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs'
import { createCertificateAuthority, issueCertificate } from '../src/certificates.js'
import { KafkaDistribution } from '../src/kafka-distribution.js'
import { KafkaTestCluster } from '../src/kafka-test-cluster.js'
import { runCommand } from '../src/run-command.js'
import { unsecuredJwt } from '../src/unsecured-jwt.js'

// Real brokers (Java 17), one per secured setup: each start takes ~10-30 s on a loaded machine.
const START_TIMEOUT = 240_000
const DESCRIBE_CLUSTER = fileURLToPath(new URL('./java/DescribeCluster.java', import.meta.url))

function unique(prefix: string): string {
  return `${prefix}-${Date.now()}-${randomBytes(3).toString('hex')}`
}

function client(cluster: KafkaTestCluster, security: Pick<KafkaConfig, 'ssl' | 'sasl'>, retries = 0): Kafka {
  return new Kafka({
    clientId: unique('secured-cluster-test'),
    brokers: cluster.brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5000,
    requestTimeout: 15_000,
    retry: { retries, initialRetryTime: 200, maxRetryTime: 2000 },
    ...security
  })
}

/** The broker count a Metadata request through `security` sees, or the error it fails with. */
async function brokerCount(cluster: KafkaTestCluster, security: Pick<KafkaConfig, 'ssl' | 'sasl'>): Promise<number | Error> {
  const admin = client(cluster, security).admin()
  try {
    await admin.connect()
    return (await admin.describeCluster()).brokers.length
  } catch (error) {
    return error as Error
  } finally {
    await admin.disconnect().catch(() => {})
  }
}

/** Creates `topic` and writes one record to it, as the admin. */
async function topicWithRecord(cluster: KafkaTestCluster, value: string): Promise<string> {
  const topic = unique('secured')
  const kafka = client(cluster, cluster.security!.clientOptions(), 8)
  const admin = kafka.admin()
  await admin.connect()
  try {
    expect(await admin.createTopics({ topics: [{ topic }], waitForLeaders: false })).to.equal(true)
    // kafkajs' own wait for leaders gives up on UNKNOWN_TOPIC_OR_PARTITION, which a broker answers
    // until the new topic reaches its metadata cache (seen on a loaded machine): ask until it has a leader.
    for (const end = Date.now() + 30_000; ; await new Promise(resolve => setTimeout(resolve, 200))) {
      const ready = await admin.fetchTopicMetadata({ topics: [topic] }).then(
        m => m.topics[0]!.partitions.every(p => p.leader >= 0),
        (error: unknown) => {
          if (Date.now() > end) throw error
          return false
        }
      )
      if (ready) break
      if (Date.now() > end) throw new Error(`topic ${topic} has no leader after 30 s`)
    }
  } finally {
    await admin.disconnect()
  }
  const producer = kafka.producer()
  await producer.connect()
  try {
    await producer.send({ topic, messages: [{ key: 'k', value }] })
  } finally {
    await producer.disconnect()
  }
  return topic
}

/** The first record's value of `topic`, read from the beginning in group `groupId`; rejects with what the consumer failed with. */
async function readFirst(
  cluster: KafkaTestCluster,
  security: Pick<KafkaConfig, 'ssl' | 'sasl'>,
  topic: string,
  groupId: string
): Promise<string> {
  const consumer = client(cluster, security, 10).consumer({ groupId })
  try {
    await consumer.connect()
    await consumer.subscribe({ topic, fromBeginning: true })
    return await new Promise<string>((resolve, reject) => {
      consumer.on(consumer.events.CRASH, event => {
        // A retriable failure (e.g. the new offsets topic still loading) restarts the consumer.
        if (!event.payload.restart) reject(event.payload.error)
      })
      consumer
        .run({
          eachMessage: async ({ message }) => {
            resolve(String(message.value))
          }
        })
        .catch(reject)
    })
  } finally {
    await consumer.disconnect().catch(() => {})
  }
}

/** Runs test/java/DescribeCluster.java (a Java AdminClient) with the cluster's client.properties. */
async function javaDescribeCluster(cluster: KafkaTestCluster): Promise<string> {
  const distribution = await KafkaDistribution.resolve({ version: cluster.kafkaVersion })
  const args = [
    '-Xmx128m',
    '-cp',
    distribution.classpath,
    DESCRIBE_CLUSTER,
    cluster.bootstrapServers,
    cluster.security!.files.clientProperties
  ]
  const result = await runCommand(distribution.javaCommand, args)
  expect(result.exitCode, result.output).to.equal(0)
  return result.output
}

/** `principal`, connecting with `security`, cannot read a new topic (TOPIC_AUTHORIZATION_FAILED) until the admin grants it READ. */
async function deniedUntilGranted(
  cluster: KafkaTestCluster,
  security: Pick<KafkaConfig, 'ssl' | 'sasl'>,
  principal: string
): Promise<void> {
  const topic = await topicWithRecord(cluster, `for ${principal}`)
  const groupId = unique(`${principal}-group`)
  const denied = await readFirst(cluster, security, topic, groupId).catch((e: unknown) => e)
  expect(denied).to.be.instanceOf(Error)
  expect((denied as { type?: string }).type).to.equal('TOPIC_AUTHORIZATION_FAILED')
  await cluster.security!.grant(principal, [
    { resource: 'topic', name: topic, operations: ['read', 'describe'] },
    { resource: 'group', name: groupId, operations: ['read'] }
  ])
  expect(await readFirst(cluster, security, topic, groupId)).to.equal(`for ${principal}`)
}

function authenticationFailure(result: number | Error): string {
  expect(result).to.be.instanceOf(Error)
  expect((result as Error).name).to.equal('KafkaJSSASLAuthenticationError')
  return (result as Error).message
}

describe('a secured KafkaTestCluster (real brokers)', function () {
  this.timeout(120_000)

  describe('SASL_SSL with SCRAM-SHA-512, SCRAM-SHA-256 and PLAIN, and ACLs', () => {
    let cluster: KafkaTestCluster

    before(async function () {
      this.timeout(START_TIMEOUT)
      cluster = await KafkaTestCluster.start({
        security: {
          protocol: 'sasl_ssl',
          saslMechanisms: ['scram-sha-512', 'scram-sha-256', 'plain'],
          authorizer: true,
          users: { alice: 'alice-secret' }
        }
      })
    })
    after(async () => {
      await cluster?.stop()
    })

    it('lets the admin write and read with SCRAM-SHA-512, and connect with SCRAM-SHA-256 and PLAIN', async () => {
      const security = cluster.security!
      expect(security.describe()).to.equal('SASL_SSL, SASL SCRAM-SHA-512, SCRAM-SHA-256, PLAIN, ACLs (StandardAuthorizer)')
      const topic = await topicWithRecord(cluster, 'over SASL_SSL')
      expect(await readFirst(cluster, security.clientOptions(), topic, unique('admin-group'))).to.equal('over SASL_SSL')
      expect(await brokerCount(cluster, security.clientOptions({ mechanism: 'scram-sha-256' }))).to.equal(1)
      expect(await brokerCount(cluster, security.clientOptions({ mechanism: 'plain' }))).to.equal(1)
      expect(await brokerCount(cluster, security.clientOptions({ user: 'alice', mechanism: 'plain' }))).to.equal(1)
    })

    it('refuses a wrong password with each mechanism', async () => {
      const security = cluster.security!
      for (const mechanism of ['scram-sha-512', 'scram-sha-256', 'plain'] as const) {
        const sasl = { ...security.sasl({ user: 'alice', mechanism }), password: 'wrong' } as KafkaConfig['sasl']
        const message = authenticationFailure(await brokerCount(cluster, { ssl: security.ssl, sasl }))
        expect(message).to.match(/authentication failed/i)
      }
    })

    it('refuses a client that trusts another CA, and one with TLS but no SASL', async () => {
      const security = cluster.security!
      const otherCa = createCertificateAuthority({ commonName: 'another CA' })
      const untrusted = await brokerCount(cluster, { ssl: { ca: otherCa.cert }, sasl: security.sasl() })
      expect(untrusted).to.be.instanceOf(Error)
      expect((untrusted as Error).message).to.match(/self[- ]signed certificate in certificate chain/)
      expect(await brokerCount(cluster, { ssl: security.ssl })).to.be.instanceOf(Error)
    })

    it('denies alice reading a topic without ACLs, and lets her read it once granted', async () => {
      await deniedUntilGranted(cluster, cluster.security!.clientOptions({ user: 'alice' }), 'alice')
    })

    it('takes its Java client config (PKCS12 trust store, SCRAM) in a Java AdminClient', async () => {
      expect(await javaDescribeCluster(cluster)).to.contain('brokers=1')
    })
  })

  describe('SSL with mTLS and ACLs', () => {
    let cluster: KafkaTestCluster

    before(async function () {
      this.timeout(START_TIMEOUT)
      cluster = await KafkaTestCluster.start({ security: { protocol: 'ssl', mtls: true, authorizer: true } })
    })
    after(async () => {
      await cluster?.stop()
    })

    it('lets the admin certificate write and read', async () => {
      const topic = await topicWithRecord(cluster, 'over mTLS')
      expect(await readFirst(cluster, cluster.security!.clientOptions(), topic, unique('admin-group'))).to.equal('over mTLS')
    })

    it('refuses a client without a certificate, and one whose certificate another CA issued', async () => {
      const ca = cluster.security!.caPem
      expect(await brokerCount(cluster, { ssl: { ca } })).to.be.instanceOf(Error)
      const foreign = issueCertificate(createCertificateAuthority({ commonName: 'another CA' }), { commonName: 'admin' })
      expect(await brokerCount(cluster, { ssl: { ca, ...foreign } })).to.be.instanceOf(Error)
      expect(await brokerCount(cluster, { ssl: { ca, ...cluster.security!.issueClientCertificate('carol') } })).to.equal(1)
    })

    it('takes a certificate issued for bob as User:bob: denied the topic until granted', async () => {
      const security = cluster.security!
      await deniedUntilGranted(cluster, { ssl: { ca: security.caPem, ...security.issueClientCertificate('bob') } }, 'bob')
    })

    it('takes its Java client config (PKCS12 key and trust stores) in a Java AdminClient', async () => {
      expect(await javaDescribeCluster(cluster)).to.contain('brokers=1')
    })
  })

  describe('SASL_PLAINTEXT with OAUTHBEARER (unsecured JWS) and PLAIN, and ACLs', () => {
    let cluster: KafkaTestCluster

    before(async function () {
      this.timeout(START_TIMEOUT)
      // OAUTHBEARER first: the brokers authenticate to each other with unsecured tokens too.
      cluster = await KafkaTestCluster.start({
        security: {
          protocol: 'sasl_plaintext',
          saslMechanisms: ['oauthbearer', 'plain'],
          authorizer: true,
          users: { alice: 'alice-secret' }
        }
      })
    })
    after(async () => {
      await cluster?.stop()
    })

    it("lets the admin's token write and read", async () => {
      const security = cluster.security!
      expect(security.ssl).to.equal(undefined)
      const topic = await topicWithRecord(cluster, 'over OAUTHBEARER')
      expect(await readFirst(cluster, security.clientOptions(), topic, unique('admin-group'))).to.equal('over OAUTHBEARER')
    })

    it('refuses an expired token, and a wrong PLAIN password', async () => {
      const expired = {
        mechanism: 'oauthbearer' as const,
        oauthBearerProvider: async () => ({ value: unsecuredJwt({ principal: 'admin', lifetimeMs: -60_000 }) })
      }
      // The broker answers {"status":"invalid_token"}; kafkajs 2.2.4 takes that for success and then loses the connection.
      expect(await brokerCount(cluster, { sasl: expired })).to.be.instanceOf(Error)
      const fresh = {
        mechanism: 'oauthbearer' as const,
        oauthBearerProvider: async () => ({ value: unsecuredJwt({ principal: 'admin' }) })
      }
      expect(await brokerCount(cluster, { sasl: fresh })).to.equal(1)
      const wrong = { mechanism: 'plain' as const, username: 'alice', password: 'wrong' }
      expect(authenticationFailure(await brokerCount(cluster, { sasl: wrong }))).to.match(/authentication failed/i)
    })

    it("takes a token's subject as its principal: alice is denied the topic until granted", async () => {
      await deniedUntilGranted(cluster, cluster.security!.clientOptions({ user: 'alice', mechanism: 'oauthbearer' }), 'alice')
    })
  })
})
