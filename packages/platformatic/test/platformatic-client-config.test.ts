/**
 * The adapter's options and the runtime's settings, without a broker: ConfigErrors naming the
 * key, SASL and TLS as platformatic takes them, the transaction timeout default, the
 * transactional producer's retries (about max.block.ms), the factory's name and exactly-once
 * flag, and nothing secret in what is logged.
 */
import { expect } from 'chai'
import { ConfigError } from '@kstreams/core'
import { PlatformaticClientFactory, platformatic } from '../src/index.js'
import { redact, resolvePlatformaticConfig } from '../src/platformatic-client-config.js'
import { transactionalRetries } from '../src/platformatic-producer.js'
import { RecordingLogger, testSettings } from '../../../tests/adapter-contract/contract-env.js'

function configKey(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError)
    return (error as ConfigError).key
  }
  throw new Error('expected a ConfigError')
}

describe('platformatic client config', () => {
  it('validates the options, naming platformatic.<option>', () => {
    expect(configKey(() => platformatic({ retries: 1 }))).to.equal('platformatic.retries')
    expect(configKey(() => platformatic({ metadataMaxAgeMs: 0 }))).to.equal('platformatic.metadataMaxAgeMs')
    expect(configKey(() => platformatic({ retryDelayMs: -1 }))).to.equal('platformatic.retryDelayMs')
    expect(configKey(() => platformatic({ retry: {} } as never))).to.equal('platformatic.retry')
    expect(platformatic({ retries: 2, retryDelayMs: 0, metadataMaxAgeMs: 1000 })).to.be.a('function')
  })

  it('validates the settings it uses, naming the key', () => {
    expect(configKey(() => resolvePlatformaticConfig(testSettings({ bootstrapServers: [' '] })))).to.equal('bootstrapServers')
    expect(configKey(() => resolvePlatformaticConfig(testSettings({ bootstrapServers: ['host:notaport'] })))).to.equal('bootstrapServers')
    expect(configKey(() => resolvePlatformaticConfig(testSettings({ requestTimeoutMs: 0 })))).to.equal('requestTimeoutMs')
    expect(configKey(() => resolvePlatformaticConfig(testSettings({ sasl: { mechanism: 'aws' } as never })))).to.equal('sasl.mechanism')
    expect(configKey(() => resolvePlatformaticConfig(testSettings({ sasl: { mechanism: 'plain', username: 'u' } as never })))).to.equal(
      'sasl.password'
    )
  })

  it("passes TLS to platformatic, and SASL as the mechanism with the adapter's authenticator", () => {
    const scram = resolvePlatformaticConfig(
      testSettings({ ssl: true, sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' } })
    ).connectionOptions()
    expect(scram.tls).to.deep.equal({})
    expect(scram.sasl!.mechanism).to.equal('SCRAM-SHA-512')
    expect(scram.sasl!.authenticate).to.be.a('function')
    // The credentials stay inside the authenticator: nothing platformatic could log carries them.
    expect(JSON.stringify(scram.sasl)).not.to.include('"p"')
    const oauth = resolvePlatformaticConfig(
      testSettings({ sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: 'tok' }) } })
    ).connectionOptions(1234)
    expect(oauth.sasl!.mechanism).to.equal('OAUTHBEARER')
    expect(oauth.requestTimeout).to.equal(1234)
    expect(resolvePlatformaticConfig(testSettings({ ssl: false })).connectionOptions().tls).to.equal(undefined)
  })

  it('defaults the transaction timeout to 10000 (Kafka Streams under exactly-once) and parses brokers', () => {
    const config = resolvePlatformaticConfig(testSettings({ bootstrapServers: ['a:1', 'b:29092', '[::1]:9093'] }))
    expect(config.transactionTimeoutMs).to.equal(10_000)
    expect(config.bootstrap).to.deep.equal([
      { host: 'a', port: 1 },
      { host: 'b', port: 29092 },
      { host: '::1', port: 9093 }
    ])
    expect(resolvePlatformaticConfig(testSettings({ transactionTimeoutMs: 60_000 })).transactionTimeoutMs).to.equal(60_000)
  })

  it("the transactional producer retries for about max.block.ms (Kafka's 60000 by default), the pause doubling from retryDelayMs to 1 s", () => {
    const config = resolvePlatformaticConfig(testSettings())
    expect(config.maxBlockMs).to.equal(60_000)
    const { retries, retryDelay } = transactionalRetries(config)
    const pauses = Array.from({ length: retries }, (_, i) => retryDelay(undefined, 'produce', i + 1))
    expect(pauses.slice(0, 4)).to.deep.equal([250, 500, 1000, 1000])
    const total = pauses.reduce((a, b) => a + b, 0)
    expect(total).to.be.at.least(60_000).and.below(61_000)
    // Never fewer than `retries`; a producer that must not wait gets those only.
    const quick = transactionalRetries({ ...resolvePlatformaticConfig(testSettings({ maxBlockMs: 0 })), retries: 3 })
    expect(quick.retries).to.equal(3)
    expect(configKey(() => resolvePlatformaticConfig(testSettings({ maxBlockMs: -1 })))).to.equal('producer.max.block.ms')
  })

  it('is the @kstreams/platformatic factory with exactly-once v2, and logs no secret', () => {
    const logger = new RecordingLogger()
    const factory = new PlatformaticClientFactory(
      testSettings({ logger, sasl: { mechanism: 'plain', username: 'alice', password: 's3cret' }, ssl: { rejectUnauthorized: false } })
    )
    expect(factory.name).to.equal('@kstreams/platformatic')
    expect(factory.exactlyOnceV2).to.equal(true)
    const logged = JSON.stringify(logger.lines)
    expect(logged).to.include('plain')
    expect(logged).not.to.include('s3cret').and.not.include('alice')
    expect(JSON.stringify(redact({ nested: { password: 'x', token: 'y' } }))).not.to.include('"x"')
  })
})
