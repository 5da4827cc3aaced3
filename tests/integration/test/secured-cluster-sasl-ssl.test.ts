/**
 * kstreams on a secured cluster: one broker with a SASL_SSL listener offering SCRAM-SHA-512, PLAIN
 * and OAUTHBEARER (unsecured tokens; sessions of 15 s, so that clients re-authenticate) and
 * StandardAuthorizer ACLs, shared by the tests below, on the suite's client (KSTREAMS_TEST_CLIENT).
 * The WordCount (RocksDB) reaches RUNNING and exact counts as a SCRAM user and as an OAUTHBEARER
 * principal whose token provider is called again as sessions end, with no password or token in
 * any log line; exactly_once_v2 too on @kstreams/platformatic. Each failure a user meets is a
 * typed error whose own message names its cause, and the client goes to ERROR (Kafka Streams:
 * authentication and authorization errors are fatal to the thread; the uncaught-exception handler
 * answers SHUTDOWN_CLIENT, the default).
 */
import { expect } from 'chai'
import type { StreamsConfig } from '@kstreams/core'
import { unsecuredJwt } from '@kstreams/kafka-local'
import { sleep, testClientName, waitFor } from './helpers.js'
import {
  expectedCounts,
  grantWordCount,
  logText,
  securedCluster,
  SuperUser,
  WordCountRun,
  wordCountNames,
  type WordCountNames
} from './secured-cluster.js'

const ALICE_PASSWORD = 'alice-Pa55-word'
const CAROL_PASSWORD = 'carol-Pa55-word'
const LINES = ['hello secured kafka', 'kafka streams on sasl ssl', 'hello acls']

describe('Secured cluster: SASL_SSL (SCRAM-SHA-512, PLAIN, OAUTHBEARER) with ACLs', function () {
  this.timeout(120000)
  const cluster = securedCluster({
    security: {
      protocol: 'sasl_ssl',
      saslMechanisms: ['scram-sha-512', 'plain', 'oauthbearer'],
      authorizer: true,
      users: { alice: ALICE_PASSWORD, carol: CAROL_PASSWORD }
    },
    // OAUTHBEARER sessions end after 15 s (or at the token's expiry): clients must authenticate again.
    overrides: { 'listener.name.sasl_ssl.oauthbearer.connections.max.reauth.ms': 15000 }
  })
  const security = () => cluster().security!
  const broker = () => cluster().bootstrapServers

  /** The test's topics, created, with the input written. */
  async function topicsWithInput(name: string): Promise<WordCountNames> {
    const names = wordCountNames(name)
    const admin = new SuperUser(cluster())
    await admin.createTopics(Object.values(names.topics))
    await admin.produce(names.topics.input, LINES)
    return names
  }

  async function expectExactCounts(names: WordCountNames): Promise<void> {
    const expected = expectedCounts(LINES)
    const counts = await new SuperUser(cluster()).lastCounts(
      names.topics.output,
      c => [...expected].every(([w, n]) => c.get(w) === n),
      60000
    )
    expect(Object.fromEntries(counts)).to.deep.equal(Object.fromEntries(expected))
  }

  /**
   * A WordCount as `principal` (with the ACLs it needs) authenticating with `identity`: RUNNING and
   * exact counts, then `meanwhile` while it still runs; closed, its thread never failed.
   */
  async function countAs(
    name: string,
    principal: string,
    identity: Parameters<typeof WordCountRun.start>[2],
    config: Partial<StreamsConfig> = {},
    meanwhile: (names: WordCountNames, run: WordCountRun) => Promise<void> = async () => undefined
  ): Promise<WordCountRun> {
    const names = await topicsWithInput(name)
    await grantWordCount(security(), principal, names)
    const run = await WordCountRun.start(cluster(), names, identity, config)
    try {
      await run.waitFor('RUNNING', 60000)
      await expectExactCounts(names)
      await meanwhile(names, run)
    } finally {
      await run.close()
    }
    expect(run.errors).to.deep.equal([])
    return run
  }

  /** Starts a WordCount as carol (SCRAM-SHA-512) with every ACL it needs but `leave`, and waits for ERROR. */
  async function failingRun(name: string, leave: Parameters<typeof grantWordCount>[3], guarantee = 'at_least_once'): Promise<WordCountRun> {
    const names = await topicsWithInput(name)
    await grantWordCount(security(), 'carol', names, leave)
    return await WordCountRun.untilError(
      cluster(),
      names,
      security().clientOptions({ user: 'carol', mechanism: 'scram-sha-512' }),
      guarantee === 'exactly_once_v2' ? { processingGuarantee: 'exactly_once_v2' } : {}
    )
  }

  it('WordCount (RocksDB) as a SCRAM-SHA-512 user with ACLs: RUNNING, exact counts, the password in no log line', async () => {
    const run = await countAs('scram', 'alice', security().clientOptions({ user: 'alice', mechanism: 'scram-sha-512' }))
    expect(run.lines.length).to.be.greaterThan(0)
    expect(logText(run.lines)).not.to.include(ALICE_PASSWORD)
  })

  it('WordCount on OAUTHBEARER: exact counts while sessions end and the token provider is asked again; no token in any log line', async () => {
    const tokens: Array<{ at: number; token: string }> = []
    const oauthBearerProvider = async (): Promise<{ value: string }> => {
      const token = unsecuredJwt({ principal: 'dave', lifetimeMs: 600000 })
      tokens.push({ at: Date.now(), token })
      return { value: token }
    }
    const run = await countAs(
      'oauth',
      'dave',
      { ssl: security().ssl!, sasl: { mechanism: 'oauthbearer', oauthBearerProvider } },
      {},
      async (names, running) => {
        // The broker ends each session 15 s after it began: every connection authenticates again
        // before (a new token from the provider), or reconnects after.
        const firstAt = tokens[0]!.at
        await waitFor('a token asked for again as the first sessions end', () => tokens.some(t => t.at > firstAt + 10000), 30000)
        await sleep(6000)
        await new SuperUser(cluster()).produce(names.topics.input, ['hello again'])
        const counts = await new SuperUser(cluster()).lastCounts(names.topics.output, c => c.get('again') === 1, 60000)
        expect(counts.get('again')).to.equal(1)
        expect(counts.get('hello')).to.equal(3)
        expect(running.state()).to.equal('RUNNING')
      }
    )
    const text = logText(run.lines)
    for (const { token } of tokens) expect(text).not.to.include(token)
  })

  it('a wrong password: SASL_AUTHENTICATION_FAILED naming the mechanism and the broker; the client goes to ERROR', async () => {
    const brokerSays = { 'scram-sha-512': 'invalid credentials', plain: 'Invalid username or password' } as const
    for (const mechanism of ['scram-sha-512', 'plain'] as const) {
      const names = wordCountNames(`wrong-${mechanism}`)
      const run = await WordCountRun.untilError(cluster(), names, {
        ssl: security().ssl!,
        sasl: { mechanism, username: 'alice', password: 'not-the-password' }
      })
      const error = run.threadError()
      expect(error.code).to.equal('KAFKA')
      expect(error.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
      expect(error.message).to.include(`SASL ${mechanism.toUpperCase()} authentication with broker ${broker()} failed`)
      expect(error.message).to.include(brokerSays[mechanism])
      expect(logText(run.lines)).not.to.include('not-the-password')
    }
  })

  it('an expired token: SASL_AUTHENTICATION_FAILED saying the broker refused it; ERROR', async () => {
    const names = wordCountNames('expired')
    const token = unsecuredJwt({ principal: 'dave', lifetimeMs: -60000 })
    const run = await WordCountRun.untilError(cluster(), names, {
      ssl: security().ssl!,
      sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: token }) }
    })
    const error = run.threadError()
    expect(error.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(error.message).to.include(`SASL OAUTHBEARER authentication with broker ${broker()} failed: the broker refused the token`)
    expect(error.message).to.include('invalid_token')
    expect(logText(run.lines)).not.to.include(token)
  })

  it('an untrusted broker certificate: SSL_AUTHENTICATION_FAILED naming the broker and the TLS error; ERROR', async () => {
    const names = wordCountNames('untrusted')
    // TLS without the cluster's CA: the system's CAs do not know it.
    const run = await WordCountRun.untilError(cluster(), names, { ssl: true, sasl: security().sasl({ user: 'alice' }) })
    const error = run.threadError()
    expect(error.errorName).to.equal('SSL_AUTHENTICATION_FAILED')
    expect(error.message).to.include(`TLS handshake with broker ${broker()} failed: self-signed certificate in certificate chain`)
    expect(error.message).to.include('SELF_SIGNED_CERT_IN_CHAIN')
    expect(error.message).to.include('ssl.ca')
  })

  it('no group ACL: GROUP_AUTHORIZATION_FAILED naming the group and the operation; ERROR', async () => {
    const run = await failingRun('no-group', 'group')
    const error = run.threadError()
    expect(error.errorName).to.equal('GROUP_AUTHORIZATION_FAILED')
    expect(error.message).to.match(/not authorized to (DESCRIBE|READ) group "no-group-[0-9a-f]+-app"/)
  })

  it('no READ on the input topic: TOPIC_AUTHORIZATION_FAILED naming the topic and READ; ERROR', async () => {
    const run = await failingRun('no-read', 'read-input')
    const error = run.threadError()
    expect(error.errorName).to.equal('TOPIC_AUTHORIZATION_FAILED')
    expect(error.message).to.match(/not authorized to READ topic "no-read-[0-9a-f]+-input" \(Fetch\)/)
  })

  it('no WRITE on the output topic: the send fails (SEND_FAILED, TOPIC_AUTHORIZATION_FAILED) naming WRITE and the topic; ERROR', async () => {
    const run = await failingRun('no-write', 'write-output')
    const error = run.threadError()
    expect(error.code).to.equal('SEND_FAILED')
    const cause = error.cause as { errorName?: string; message: string }
    expect(cause.errorName).to.equal('TOPIC_AUTHORIZATION_FAILED')
    // kafkajs' Produce error does not say which topic of the request was refused: the message names the candidates.
    expect(error.message).to.match(/not authorized to WRITE (topic |one of the topics .*)"no-write-[0-9a-f]+-output"/)
  })

  it('no CREATE for the internal topics: TOPIC_AUTHORIZATION_FAILED naming the changelog topic and CREATE; ERROR', async () => {
    const run = await failingRun('no-create', 'create')
    const error = run.threadError()
    expect(error.errorName).to.equal('TOPIC_AUTHORIZATION_FAILED')
    expect(error.message).to.match(/not authorized to CREATE topic "no-create-[0-9a-f]+-app-Counts-changelog"/)
  })

  // exactly_once_v2 needs @kstreams/platformatic (kafkajs 2.2.4 has no KIP-447 transactions).
  if (testClientName() === 'platformatic') {
    it('exactly_once_v2 (platformatic) as a SCRAM user with transactional-id ACLs: RUNNING, exact counts', async () => {
      await countAs('eos', 'alice', security().clientOptions({ user: 'alice', mechanism: 'scram-sha-512' }), {
        processingGuarantee: 'exactly_once_v2'
      })
    })

    it('exactly_once_v2 (platformatic) without a transactional-id ACL: TRANSACTIONAL_ID_AUTHORIZATION_FAILED naming the id; ERROR', async () => {
      const run = await failingRun('no-txn', 'transactional-id', 'exactly_once_v2')
      const error = run.threadError()
      expect(error.errorName).to.equal('TRANSACTIONAL_ID_AUTHORIZATION_FAILED')
      expect(error.message).to.match(/not authorized to (DESCRIBE|WRITE) transactional id "no-txn-[0-9a-f]+-app-/)
    })
  }
})
