/**
 * The pass-through client configs of the platformatic adapter, without a broker: what it honours
 * (PLATFORMATIC_CLIENT_CONFIGS) and how a port's configs are laid over the adapter's, and the
 * ConfigError naming the key for what it cannot honour, raised when the KafkaStreams instance is made.
 */
import { expect } from 'chai'
import zlib from 'node:zlib'
import { ConfigError, KafkaStreams, Topology, type StreamsConfig } from '@kstreams/core'
import { platformatic } from '../src/index.js'
import { PLATFORMATIC_CLIENT_CONFIGS, portConfig, resolvePlatformaticConfig } from '../src/platformatic-client-config.js'
import { testSettings } from '../../../tests/adapter-contract/contract-env.js'

const topology = (): Topology => new Topology().addSource('source', 'in').addSink('sink', 'out', 'source')
const make = (config: Partial<StreamsConfig>): KafkaStreams =>
  new KafkaStreams(topology(), { applicationId: 'app', bootstrapServers: '127.0.0.1:9', ...config }, { client: platformatic() })

describe('platformatic adapter: pass-through client configs', () => {
  it('lays a port configs over the adapter config: request.timeout.ms, retries, retry.backoff.ms, compression.type', () => {
    const config = resolvePlatformaticConfig(testSettings())
    expect(portConfig(config, {})).to.equal(config)
    const port = portConfig(config, { 'request.timeout.ms': '1234', retries: 7, 'retry.backoff.ms': 20, 'compression.type': 'LZ4' })
    expect(port.requestTimeoutMs).to.equal(1234)
    expect(port.connectionOptions().requestTimeout).to.equal(1234)
    expect(port.connectionOptions(99).requestTimeout).to.equal(99)
    expect(port.retries).to.equal(7)
    expect(port.retryDelayMs).to.equal(20)
    expect(port.compression).to.equal('lz4')
    expect(config.compression).to.equal('none')
  })

  it('accepts gzip, snappy and lz4; zstd where Node has it', () => {
    const check = PLATFORMATIC_CLIENT_CONFIGS.producer!['compression.type']!
    for (const codec of ['none', 'gzip', 'snappy', 'lz4']) expect(check(codec), codec).to.equal(undefined)
    const zstd = typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function'
    if (zstd) expect(check('zstd')).to.equal(undefined)
    else expect(check('zstd')).to.contain('zstd')
    expect(() => make({ producer: { 'compression.type': 'brotli' } }))
      .to.throw(ConfigError)
      .with.property('key', 'producer.compression.type')
  })

  it('rejects a client config neither the runtime nor platformatic honours, naming the key', () => {
    expect(make({ producer: { 'compression.type': 'snappy', retries: 3 }, consumer: { 'request.timeout.ms': 1000 } }).state()).to.equal(
      'CREATED'
    )
    expect(() => make({ producer: { 'buffer.memory': 1 } }))
      .to.throw(ConfigError)
      .with.property('key', 'producer.buffer.memory')
    expect(() => make({ producer: { retries: 1 } }))
      .to.throw(ConfigError)
      .with.property('key', 'producer.retries')
    expect(() => make({ mainConsumer: { 'client.rack': 'r1' } }))
      .to.throw(ConfigError)
      .with.property('key', 'mainConsumer.client.rack')
  })
})
