/**
 * The pass-through client configs of the kafkajs adapter, without a broker: what it honours
 * (KAFKAJS_CLIENT_CONFIGS; every Kafka compression codec, zstd where Node.js has it), and the
 * ConfigError naming the key for what it cannot, raised when the KafkaStreams instance is made.
 */
import zlib from 'node:zlib'
import { expect } from 'chai'
import { CompressionTypes } from 'kafkajs'
import { ConfigError, KafkaStreams, Topology, type StreamsConfig } from '@kstreams/core'
import { kafkajs } from '../src/index.js'
import { KAFKAJS_CLIENT_CONFIGS, kafkajsCompression } from '../src/kafkajs-client-config.js'

const topology = (): Topology => new Topology().addSource('source', 'in').addSink('sink', 'out', 'source')
const make = (config: Partial<StreamsConfig>): KafkaStreams =>
  new KafkaStreams(topology(), { applicationId: 'app', bootstrapServers: '127.0.0.1:9', ...config }, { client: kafkajs() })

describe('kafkajs adapter: pass-through client configs', () => {
  it('honours producer compression.type, retries, retry.backoff.ms and request.timeout.ms', () => {
    const streams = make({
      producer: { 'compression.type': 'gzip', retries: 3, 'retry.backoff.ms': 50, 'request.timeout.ms': 5000 },
      consumer: { 'request.timeout.ms': 5000 },
      admin: { 'request.timeout.ms': 5000, retries: 2 }
    })
    expect(streams.state()).to.equal('CREATED')
    expect(kafkajsCompression({ 'compression.type': 'GZIP' })).to.equal(CompressionTypes.GZIP)
    expect(kafkajsCompression({ 'compression.type': 'snappy' })).to.equal(CompressionTypes.Snappy)
    expect(kafkajsCompression({ 'compression.type': 'lz4' })).to.equal(CompressionTypes.LZ4)
    expect(kafkajsCompression({ 'compression.type': 'zstd' })).to.equal(CompressionTypes.ZSTD)
    expect(kafkajsCompression({})).to.equal(CompressionTypes.None)
  })

  it('accepts none, gzip, snappy and lz4, zstd where Node.js has it; rejects other codecs naming the key', () => {
    for (const codec of ['none', 'gzip', 'snappy', 'lz4', 'LZ4'])
      expect(make({ producer: { 'compression.type': codec } }).state()).to.equal('CREATED')
    const check = KAFKAJS_CLIENT_CONFIGS.producer!['compression.type']!
    if (typeof (zlib as { zstdCompress?: unknown }).zstdCompress === 'function') expect(check('zstd')).to.equal(undefined)
    else expect(check('zstd')).to.include('Node.js 22.15')
    expect(() => make({ producer: { 'compression.type': 'brotli' } }))
      .to.throw(ConfigError, 'none, gzip, snappy, lz4, zstd')
      .with.property('key', 'producer.compression.type')
  })

  it('rejects a client config neither the runtime nor kafkajs honours, naming the key', () => {
    expect(() => make({ producer: { 'buffer.memory': 1 } }))
      .to.throw(ConfigError)
      .with.property('key', 'producer.buffer.memory')
    expect(() => make({ globalConsumer: { 'check.crcs': false } }))
      .to.throw(ConfigError)
      .with.property('key', 'globalConsumer.check.crcs')
    expect(() => make({ admin: { 'retry.backoff.max.ms': 1 } }))
      .to.throw(ConfigError)
      .with.property('key', 'admin.retry.backoff.max.ms')
  })

  it('declares only keys the runtime does not honour itself', () => {
    expect(Object.keys(KAFKAJS_CLIENT_CONFIGS.consumer ?? {})).to.deep.equal(['request.timeout.ms'])
    expect(Object.keys(KAFKAJS_CLIENT_CONFIGS.producer ?? {})).to.not.include('linger.ms')
  })
})
