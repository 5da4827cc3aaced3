/**
 * `kstreams --command-config` on one secured broker: SASL_SSL with SCRAM-SHA-512 (and
 * OAUTHBEARER beside it), mTLS and ACLs (StandardAuthorizer). The built bin takes exactly the
 * Java client.properties kafka-local writes for Kafka's tools (PKCS12 trust and key stores,
 * SCRAM-SHA-512 as the super user): `reset` commits the earliest offsets and deletes the internal
 * topics, `state` reads the changelog lag. A PEM config as a user without the DELETE ACL on
 * the internal topics fails with the authorization error and works once granted; OAUTHBEARER works with unsecured tokens and with
 * a client-credentials token endpoint; a wrong password fails at once with the authentication
 * error (exit 1). No password appears in any output.
 */
import { expect } from 'chai'
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { OffsetCheckpoint } from '@kstreams/core/internal'
import { KafkaTestCluster, unsecuredJwt } from '@kstreams/kafka-local'
import { tempDir, testClientName, unique } from './helpers.js'
import { type CliRun, kstreams } from './kstreams-cli.js'

const SCRAM = 'org.apache.kafka.common.security.scram.ScramLoginModule'
const OAUTH = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule'

describe('kstreams CLI --command-config on a SASL_SSL SCRAM-SHA-512 broker with mTLS and ACLs', function () {
  this.timeout(300_000)
  let cluster: KafkaTestCluster
  let admin: Admin
  let dir: { path: string; remove: () => Promise<void> }
  /** Every password of the run: none may be printed. */
  let secrets: string[] = []
  const client = ['--client', testClientName()]
  const broker = (): string[] => ['--bootstrap-server', cluster.bootstrapServers]
  /** `kstreams reset` of `appId` with the command config `config` and `extra` options. */
  const resetWith = async (appId: string, config: string, ...extra: string[]): Promise<CliRun> =>
    await kstreams(['reset', '--application-id', appId, ...broker(), ...client, '--command-config', config, ...extra])

  before(async function () {
    this.timeout(180_000)
    cluster = await KafkaTestCluster.start({
      security: {
        protocol: 'sasl_ssl',
        saslMechanisms: ['scram-sha-512', 'oauthbearer'],
        mtls: true,
        authorizer: true,
        users: { alice: 'alice-secret-7f3a' }
      }
    })
    const security = cluster.security!
    secrets = [security.adminPassword!, security.storePassword, 'alice-secret-7f3a', 'token-endpoint-secret-91c2']
    admin = new Kafka({
      clientId: unique('it-secured'),
      brokers: cluster.brokers,
      logLevel: logLevel.NOTHING,
      ...security.clientOptions()
    }).admin()
    await admin.connect()
    dir = await tempDir('kstreams-cli-secured')
  })
  after(async () => {
    await admin?.disconnect().catch(() => undefined)
    await cluster?.stop()
    await dir?.remove()
  })

  /** Creates `input` (2 partitions, 5 records) with the group's offsets committed at its end, and the application's internal topics. */
  async function application(appId: string): Promise<{ input: string; internal: string[] }> {
    const input = `${appId}-in`
    const internal = [`${appId}-Counts-changelog`, `${appId}-Counts-repartition`]
    await createTopics([input, ...internal])
    await produceFive(input)
    await admin.setOffsets({
      groupId: appId,
      topic: input,
      partitions: [
        { partition: 0, offset: '3' },
        { partition: 1, offset: '2' }
      ]
    })
    return { input, internal }
  }
  /** Writes five records as the admin: three to partition 0, two to partition 1. */
  async function produceFive(topic: string): Promise<void> {
    const producer = new Kafka({
      clientId: unique('it-producer'),
      brokers: cluster.brokers,
      logLevel: logLevel.NOTHING,
      ...cluster.security!.clientOptions()
    }).producer()
    await producer.connect()
    await producer.send({ topic, messages: [0, 1, 2, 3, 4].map(i => ({ key: String(i), value: `v${i}`, partition: i % 2 })) })
    await producer.disconnect()
  }
  /** Creates topics and waits until every partition has a leader (a new topic's metadata can lag behind CreateTopics). */
  async function createTopics(topics: string[]): Promise<void> {
    await admin.createTopics({ topics: topics.map(topic => ({ topic, numPartitions: 2 })) })
    for (let attempt = 0; ; attempt++) {
      try {
        const { topics: found } = await admin.fetchTopicMetadata({ topics })
        if (found.every(t => t.partitions.length === 2 && t.partitions.every(p => p.leader >= 0))) return
      } catch (error) {
        if (attempt >= 50) throw error
      }
      await new Promise(resolve => setTimeout(resolve, 200))
    }
  }
  async function committed(groupId: string, topic: string): Promise<Record<number, number>> {
    const [fetched] = await admin.fetchOffsets({ groupId, topics: [topic] })
    return Object.fromEntries(fetched!.partitions.map(p => [p.partition, Number(p.offset)]))
  }
  function expectNoSecret(run: CliRun): void {
    for (const secret of secrets) expect(run.stdout + run.stderr, 'a password was printed').not.to.include(secret)
  }

  it("reset takes the cluster's Java client.properties (PKCS12 trust and key stores, SCRAM-SHA-512): earliest offsets committed, internal topics deleted", async () => {
    const properties = await readFile(cluster.security!.files.clientProperties, 'utf8')
    expect(properties)
      .to.include('ssl.truststore.type=PKCS12')
      .and.include('ssl.keystore.type=PKCS12')
      .and.include('sasl.mechanism=SCRAM-SHA-512')
    const appId = unique('cli-secured')
    const { input, internal } = await application(appId)
    const run = await resetWith(appId, cluster.security!.files.clientProperties, '--input-topics', input)
    expect(run.code, run.stdout + run.stderr).to.equal(0)
    expect(run.stderr).to.equal('')
    expect(run.stdout).to.include(`Internal topics to delete (inferred): ${[...internal].sort().join(', ')}`)
    expect(await committed(appId, input)).to.deep.equal({ 0: 0, 1: 0 })
    expect((await admin.listTopics()).filter(t => internal.includes(t))).to.deep.equal([])
    expectNoSecret(run)
  })

  it('state --command-config reads the end offsets of the checkpointed changelog over the secured listener (the lag)', async () => {
    const appId = unique('cli-secured-state')
    const changelog = `${appId}-Store-changelog`
    await createTopics([changelog])
    await produceFive(changelog)
    await mkdir(join(dir.path, appId, '0_0'), { recursive: true })
    // Partition 0 has records 0 to 2 (end offset 3); the store holds offset 1: lag 1.
    await new OffsetCheckpoint(join(dir.path, appId, '0_0', '.checkpoint')).write([{ topic: changelog, partition: 0, offset: 1 }])
    const run = await kstreams([
      'state',
      join(dir.path, appId),
      '--json',
      ...broker(),
      ...client,
      '--command-config',
      cluster.security!.files.clientProperties
    ])
    expect(run.code, run.stderr).to.equal(0)
    const [task] = JSON.parse(run.stdout).applications[0].tasks
    expect(task.checkpoint).to.deep.equal([{ topic: changelog, partition: 0, offset: 1, store: 'Store', endOffset: 3, lag: 1 }])
    expectNoSecret(run)
  })

  it('a PEM config as a user without the DELETE ACL on the internal topics fails with the authorization error (exit 1); once granted, it resets', async () => {
    const security = cluster.security!
    const alice = security.issueClientCertificate('alice')
    const bundle = join(dir.path, 'alice.pem')
    await writeFile(bundle, alice.key + alice.cert)
    const config = join(dir.path, 'alice.properties')
    await writeFile(
      config,
      [
        '# alice over SASL_SSL, PEM stores',
        'security.protocol=SASL_SSL',
        'sasl.mechanism=SCRAM-SHA-512',
        `sasl.jaas.config=${SCRAM} required \\`,
        '    username="alice" \\',
        '    password="alice-secret-7f3a";',
        'ssl.truststore.type=PEM',
        `ssl.truststore.location=${security.files.caPem}`,
        'ssl.keystore.type=PEM',
        `ssl.keystore.location=${bundle}`,
        'client.id=alice-ops',
        ''
      ].join('\n')
    )
    const appId = unique('cli-secured-alice')
    const { input, internal } = await application(appId)
    const reset = async (): Promise<CliRun> => await resetWith(appId, config, '--input-topics', input)
    await security.grant('alice', [
      { resource: 'group', name: appId, operations: ['read', 'describe'] },
      { resource: 'topic', name: input, operations: ['read', 'describe'] },
      { resource: 'topic', name: `${appId}-`, patternType: 'prefixed', operations: ['describe'] }
    ])
    const denied = await reset()
    expect(denied.code, denied.stdout + denied.stderr).to.equal(1)
    // The offsets were reset (READ on the group and the topic), the deletion refused; client.id names the admin.
    expect(denied.stderr).to.match(
      new RegExp(`^ERROR \\[TOPIC_AUTHORIZATION_FAILED\\]: .*${[...internal].sort()[0]}.*\\(admin alice-ops\\).*not authorized to DELETE`)
    )
    expect(await committed(appId, input)).to.deep.equal({ 0: 0, 1: 0 })
    expectNoSecret(denied)

    await security.grant('alice', [{ resource: 'topic', name: `${appId}-`, patternType: 'prefixed', operations: ['delete'] }])
    const granted = await reset()
    expect(granted.code, granted.stdout + granted.stderr).to.equal(0)
    expect((await admin.listTopics()).filter(t => internal.includes(t))).to.deep.equal([])
    expectNoSecret(granted)
  })

  it('OAUTHBEARER: unsecured tokens from the JAAS options, and access tokens from a client-credentials token endpoint; a refused client secret exits 1 naming the endpoint', async () => {
    const files = cluster.security!.files
    const keyStores = (await readFile(files.clientProperties, 'utf8')).split('\n').filter(line => line.startsWith('ssl.'))
    const write = async (name: string, lines: string[]): Promise<string> => {
      const path = join(dir.path, name)
      await writeFile(path, ['security.protocol=SASL_SSL', 'sasl.mechanism=OAUTHBEARER', ...lines, ...keyStores, ''].join('\n'))
      return path
    }
    const unsecured = await write('oauth-unsecured.properties', [
      `sasl.jaas.config=${OAUTH} required unsecuredLoginStringClaim_sub="admin";`
    ])
    let requests = 0
    const endpoint: Server = createServer((request, response) => {
      requests++
      const basic = Buffer.from('kstreams-cli:token-endpoint-secret-91c2').toString('base64')
      const ok = request.headers.authorization === `Basic ${basic}`
      response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify(
          ok ? { access_token: unsecuredJwt({ principal: 'admin' }), token_type: 'Bearer', expires_in: 3600 } : { error: 'invalid_client' }
        )
      )
    })
    await new Promise<void>(resolve => endpoint.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/token`
      const tokenSettings = [
        'sasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler',
        `sasl.oauthbearer.token.endpoint.url=${url}`
      ]
      const credentials = await write('oauth-client-credentials.properties', [
        `sasl.jaas.config=${OAUTH} required clientId="kstreams-cli" clientSecret="token-endpoint-secret-91c2" scope="kafka";`,
        ...tokenSettings
      ])
      for (const config of [unsecured, credentials]) {
        const appId = unique('cli-secured-oauth')
        const { input } = await application(appId)
        const run = await resetWith(appId, config, '--input-topics', input)
        expect(run.code, `${config}: ${run.stdout}${run.stderr}`).to.equal(0)
        expect(await committed(appId, input)).to.deep.equal({ 0: 0, 1: 0 })
        expectNoSecret(run)
      }
      expect(requests).to.be.greaterThan(0)

      secrets.push('wrong-secret-2b7e')
      const refused = await write('oauth-wrong-secret.properties', [
        `sasl.jaas.config=${OAUTH} required clientId="kstreams-cli" clientSecret="wrong-secret-2b7e";`,
        ...tokenSettings
      ])
      // The process exits (kafkajs would keep the unauthenticated socket open until the broker drops it).
      const run = await kstreams(
        ['reset', '--application-id', unique('cli-secured-oauth'), ...broker(), ...client, '--command-config', refused],
        {
          timeoutMs: 60_000
        }
      )
      expect(run.code, run.stdout + run.stderr).to.equal(1)
      expect(run.stderr).to.include(
        `Getting an OAUTHBEARER token for --command-config ${refused} failed: the token endpoint ${url} answered HTTP 401: invalid_client\nERROR [SASL_AUTHENTICATION_FAILED]`
      )
      expectNoSecret(run)
    } finally {
      await new Promise<void>(resolve => endpoint.close(() => resolve()))
    }
  })

  it('a wrong password fails at once with the SASL authentication error, after a line naming the file, mechanism and user (exit 1), printing no password', async () => {
    const properties = await readFile(cluster.security!.files.clientProperties, 'utf8')
    const wrong = join(dir.path, 'wrong-password.properties')
    await writeFile(wrong, properties.replace(/password="[^"]*"/, 'password="wrong-password-5d1e"'))
    secrets.push('wrong-password-5d1e')
    const appId = unique('cli-secured-wrong')
    const started = Date.now()
    const run = await resetWith(appId, wrong, '--input-topics', 'any', '--dry-run')
    expect(run.code, run.stdout + run.stderr).to.equal(1)
    // Which credentials were refused (never the password), then the adapter's error.
    expect(run.stderr).to.match(
      /^The brokers refused the credentials of --command-config .*wrong-password\.properties \(SASL_SSL, SCRAM-SHA-512 as admin, a client certificate\):\nERROR \[SASL_AUTHENTICATION_FAILED\]: .*[Aa]uthentication failed/
    )
    expect(Date.now() - started, 'no retrying for long').to.be.below(60_000)
    expectNoSecret(run)
  })
})
