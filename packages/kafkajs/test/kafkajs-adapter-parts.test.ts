/**
 * The adapter's broker-free parts: the start-up check of kafkajs' internals, options and
 * settings, secret redaction and log routing, header conversion (null values refused), serial
 * execution.
 */
import { createRequire } from 'node:module'
import { expect } from 'chai'
import { Kafka } from 'kafkajs'
import { ConfigError, Headers, KafkaStreams, StreamsError, Topology, type ProducedRecord } from '@kstreams/core'
import { kafkajs, KafkajsClientFactory } from '../src/index.js'
import { resolveKafkajsConfig } from '../src/kafkajs-client-config.js'
import { KafkajsInternals, REQUIRED_KAFKAJS_VERSION, type RawMessage } from '../src/kafkajs-internals.js'
import { createLogCreator, redact } from '../src/kafkajs-log-creator.js'
import { fromKafkajsHeaders, requireEncodableHeaders, toKafkajsHeaders } from '../src/record-conversion.js'
import { RecordingLogger, testSettings } from '../../../tests/adapter-contract/contract-env.js'

const SECRET = 's3cr3t-pa55'

describe('kafkajs adapter parts', () => {
  it('refuses processingGuarantee exactly_once_v2 with a ConfigError naming this adapter and the one that has it', () => {
    const topology = new Topology().addSource('in', 'input').addSink('out', 'output', 'in')
    let error: unknown
    try {
      new KafkaStreams(
        topology,
        { applicationId: 'app', bootstrapServers: '127.0.0.1:1', processingGuarantee: 'exactly_once_v2' },
        { client: kafkajs() }
      )
    } catch (e) {
      error = e
    } // eslint-disable-line no-new
    expect(error).to.be.instanceOf(ConfigError).with.property('key', 'processingGuarantee')
    expect((error as Error).message)
      .to.include('@kstreams/kafkajs')
      .and.include('@kstreams/platformatic')
  })

  describe('start-up check', () => {
    it('finds every kafkajs internal it uses in the installed kafkajs (2.2.4), and logs nothing about it', () => {
      const logger = new RecordingLogger()
      const internals = KafkajsInternals.load(logger)
      expect(internals.version).to.equal(REQUIRED_KAFKAJS_VERSION)
      expect(logger.lines.filter(l => l.level === 'warn')).to.deep.equal([])
      internals.verifyClient(new Kafka({ brokers: ['127.0.0.1:1'], logLevel: 0 }))
    })

    it('names what is missing and the kafkajs version it needs when another kafkajs is installed', () => {
      const real = createRequire(import.meta.url)
      const olderKafkajs = (path: string): unknown => {
        if (path === 'kafkajs/package.json') return { version: '1.16.0' }
        if (path === 'kafkajs/src/consumer/batch.js') throw new Error(`Cannot find module '${path}'`)
        if (path === 'kafkajs/src/broker/index.js')
          return class Broker {
            async connect(): Promise<void> {}
          }
        return real(path)
      }
      expect(() => KafkajsInternals.load(new RecordingLogger(), olderKafkajs))
        .to.throw(StreamsError)
        .that.satisfies(
          (e: StreamsError) =>
            e.code === 'ILLEGAL_STATE' &&
            e.message.includes('exactly 2.2.4') &&
            e.message.includes('found 1.16.0') &&
            e.message.includes('kafkajs/src/consumer/batch.js') &&
            e.message.includes('Broker#offsetCommit') &&
            e.message.includes('private:Broker:sendRequest')
        )

      const logger = new RecordingLogger()
      KafkajsInternals.load(logger, path => (path === 'kafkajs/package.json' ? { version: '2.2.5' } : real(path)))
      expect(
        logger.lines
          .filter(l => l.level === 'warn')
          .map(l => l.message)
          .join()
      ).to.include('2.2.5')
    })

    it('names what is missing and the kafkajs version it needs when a client has no private cluster factory', () => {
      const internals = KafkajsInternals.load(new RecordingLogger())
      const notKafkajs = {} as unknown as Kafka
      expect(() => {
        internals.verifyClient(notKafkajs)
      })
        .to.throw(StreamsError)
        .that.satisfies(
          (e: StreamsError) =>
            e.code === 'ILLEGAL_STATE' && e.message.includes('2.2.4') && e.message.includes('private:Kafka:createCluster')
        )
      expect(() => internals.createCluster(notKafkajs, { metadataMaxAge: 1000 })).to.throw(StreamsError)
    })

    it('makes a factory with every port from kafkajs(options), without connecting', async () => {
      const factory = kafkajs({ logLevel: 'error', metadataMaxAgeMs: 60_000 })(testSettings({ bootstrapServers: ['127.0.0.1:1'] }))
      const ports = [
        factory.groupCoordinator({ groupId: 'g', clientId: 'c' }),
        factory.fetcher({ clientId: 'f' }),
        factory.producer({ clientId: 'p' }),
        factory.admin({ clientId: 'a' })
      ]
      for (const port of ports) await port.close()
    })
  })

  describe('options and settings', () => {
    it('rejects invalid options with a ConfigError naming the option, when kafkajs() is called', () => {
      expect(() => kafkajs({ metadataMaxAgeMs: 0 }))
        .to.throw(ConfigError)
        .with.property('key', 'kafkajs.metadataMaxAgeMs')
      expect(() => kafkajs({ fetchMaxBytes: 1.5 }))
        .to.throw(ConfigError)
        .with.property('key', 'kafkajs.fetchMaxBytes')
      expect(() => kafkajs({ logLevel: 'loud' as never }))
        .to.throw(ConfigError)
        .with.property('key', 'kafkajs.logLevel')
    })

    it('rejects settings without a broker, and keeps the defaults otherwise', () => {
      expect(() => resolveKafkajsConfig(testSettings({ bootstrapServers: [' ', ''] })))
        .to.throw(ConfigError)
        .with.property('key', 'bootstrapServers')
      const config = resolveKafkajsConfig(testSettings())
      expect(config).to.deep.include({
        metadataMaxAgeMs: 300_000,
        fetchMaxBytes: undefined,
        fetchMaxPartitionBytes: undefined,
        transactionTimeoutMs: 10_000
      })
      expect(resolveKafkajsConfig(testSettings({ transactionTimeoutMs: 60_000 }), { fetchMaxBytes: 1000 })).to.deep.include({
        transactionTimeoutMs: 60_000,
        fetchMaxBytes: 1000
      })
    })
  })

  describe('logging', () => {
    it('redacts SASL credentials and TLS material wherever they appear', () => {
      const safe = JSON.stringify(
        redact({
          sasl: { mechanism: 'scram-sha-512', username: 'u', password: SECRET },
          ssl: { key: SECRET, cert: SECRET, passphrase: SECRET },
          nested: [{ password: SECRET, accessToken: SECRET, ok: 1 }],
          buffer: Buffer.from(SECRET)
        })
      )
      expect(safe).not.to.include(SECRET)
      expect(safe).to.include('scram-sha-512')
      expect(safe).to.include('"ok":1')
    })

    it('routes kafkajs lines by level to the logger, without secrets', () => {
      const logger = new RecordingLogger()
      const write = createLogCreator(logger)(4)
      write({
        namespace: 'Connection',
        level: 1,
        label: 'ERROR',
        log: { timestamp: 't', message: 'failed', sasl: { mechanism: 'plain', password: SECRET }, broker: 'b:1' }
      })
      write({ namespace: 'Consumer', level: 2, label: 'WARN', log: { timestamp: 't', message: 'w' } })
      write({ namespace: '', level: 4, label: 'INFO', log: { timestamp: 't', message: 'i' } })
      write({ namespace: 'X', level: 5, label: 'DEBUG', log: { timestamp: 't', message: 'd' } })
      expect(logger.lines.map(l => [l.level, l.message])).to.deep.equal([
        ['error', 'kafkajs Connection: failed'],
        ['warn', 'kafkajs Consumer: w'],
        ['info', 'kafkajs: i'],
        ['debug', 'kafkajs X: d']
      ])
      expect(logger.lines[0]!.fields).to.deep.include({ broker: 'b:1' })
      expect(JSON.stringify(logger.lines)).not.to.include(SECRET)
    })

    it('logs the factory settings without the SASL password or TLS passphrase', () => {
      const logger = new RecordingLogger()
      const factory = new KafkajsClientFactory(
        testSettings({
          bootstrapServers: ['127.0.0.1:1'],
          sasl: { mechanism: 'plain', username: 'u', password: SECRET },
          ssl: { passphrase: SECRET },
          logger
        })
      )
      expect(factory).to.be.instanceOf(KafkajsClientFactory)
      expect(logger.lines.length).to.be.greaterThan(0)
      expect(JSON.stringify(logger.lines)).not.to.include(SECRET)
      expect(JSON.stringify(logger.lines)).to.include('plain')
    })
  })

  describe('headers', () => {
    const produced = (headers: Headers): ProducedRecord => ({
      topic: 'orders',
      partition: 3,
      key: null,
      value: null,
      headers,
      timestamp: 0
    })

    it('round-trips repeated keys (grouped by key) and reads null values back as null', () => {
      const headers = new Headers().add('a', '1').add('b', '').add('a', '2')
      const back = fromKafkajsHeaders(toKafkajsHeaders(headers) as RawMessage['headers'])
      expect(back.toArray().map(h => [h.key, h.value?.toString() ?? null])).to.deep.equal([
        ['a', '1'],
        ['a', '2'],
        ['b', '']
      ])
      expect(fromKafkajsHeaders({ n: null }).toArray()).to.deep.equal([{ key: 'n', value: null }])
    })

    it('refuses a null header value with a SerializationError naming the topic and the key', () => {
      requireEncodableHeaders(produced(new Headers().add('fine', 'x')))
      expect(() => {
        requireEncodableHeaders(produced(new Headers().add('fine', 'x').add('trace', null)))
      })
        .to.throw(StreamsError)
        .that.satisfies((e: StreamsError) => e.code === 'SERIALIZATION' && e.message.includes('orders') && e.message.includes('"trace"'))
    })
  })
})
