/**
 * The pass-through of Kafka client and topic configs (StreamsConfig `consumer`, `mainConsumer`,
 * `restoreConsumer`, `globalConsumer`, `producer`, `admin`, `topic`), with the precedence cases of
 * Kafka's StreamsConfigTest (getMainConsumerConfigs / getRestoreConsumerConfigs /
 * getGlobalConsumerConfigs / getProducerConfigs / getAdminConfigs).
 */
import { expect } from 'chai'
import { ConfigError } from '../../src/errors.js'
import { resolveStreamsConfig, type StreamsConfig } from '../../src/config/streams-config.js'
import { resolveClientConfigs, type AdapterClientConfigs } from '../../src/config/client-configs.js'

const ADAPTER: AdapterClientConfigs = {
  consumer: { 'request.timeout.ms': () => undefined },
  producer: { 'compression.type': v => (v === 'gzip' || v === 'none' ? undefined : 'must be "none" or "gzip"') },
  admin: { 'request.timeout.ms': () => undefined }
}

function clients(config: StreamsConfig, adapter: AdapterClientConfigs = ADAPTER) {
  const resolved = resolveStreamsConfig({ applicationId: 'app', ...config })
  return resolveClientConfigs(resolved, resolved, adapter)
}

describe('client config pass-through (Kafka Streams prefixes)', () => {
  describe('precedence', () => {
    it("defaults to Kafka Streams' overrides: max.poll.records 1000, linger.ms 100", () => {
      const c = clients({})
      expect(c.mainConsumer.maxPollRecords).to.equal(1000)
      expect(c.restoreConsumer.maxPollRecords).to.equal(1000)
      expect(c.globalConsumer.maxPollRecords).to.equal(1000)
      expect(c.producer.lingerMs).to.equal(100)
      expect(c.producer.batchSize).to.equal(undefined)
      expect(c.mainConsumer.fetchMinBytes).to.equal(1)
    })

    it('shouldOverrideStreamsDefaultConsumerConfigs: consumer.auto.offset.reset and consumer.max.poll.records', () => {
      const c = clients({ consumer: { 'auto.offset.reset': 'latest', 'max.poll.records': '10' } })
      expect(c.mainConsumer.autoOffsetReset).to.equal('latest')
      expect(c.mainConsumer.maxPollRecords).to.equal(10)
    })

    it('shouldOverrideStreamsDefaultConsumerConfigsOnRestoreConsumer', () => {
      expect(clients({ consumer: { 'max.poll.records': '10' } }).restoreConsumer.maxPollRecords).to.equal(10)
    })

    it('testGetMainConsumerConfigsWithMainConsumerOverriddenPrefix: main.consumer over consumer', () => {
      const c = clients({ consumer: { 'max.poll.records': '5' }, mainConsumer: { 'max.poll.records': '50' } })
      expect(c.mainConsumer.maxPollRecords).to.equal(50)
      expect(c.restoreConsumer.maxPollRecords).to.equal(5)
      expect(c.globalConsumer.maxPollRecords).to.equal(5)
    })

    it('testGetRestoreConsumerConfigsWithRestoreConsumerOverriddenPrefix: restore.consumer over consumer', () => {
      const c = clients({ consumer: { 'max.poll.records': '5' }, restoreConsumer: { 'max.poll.records': '50' } })
      expect(c.restoreConsumer.maxPollRecords).to.equal(50)
      expect(c.mainConsumer.maxPollRecords).to.equal(5)
    })

    it('testGetGlobalConsumerConfigsWithGlobalConsumerOverriddenPrefix: global.consumer over consumer', () => {
      const c = clients({ consumer: { 'max.poll.records': '5' }, globalConsumer: { 'max.poll.records': '50' } })
      expect(c.globalConsumer.maxPollRecords).to.equal(50)
      expect(c.mainConsumer.maxPollRecords).to.equal(5)
    })

    it('shouldBeSupportNonPrefixedConsumerConfigs: the camelCase StreamsConfig keys are the un-prefixed level', () => {
      const c = clients({ fetchMaxBytes: 1000, sessionTimeoutMs: 20000, consumer: { 'fetch.max.bytes': 2000 } })
      expect(c.mainConsumer.fetchMaxBytes).to.equal(2000)
      expect(c.mainConsumer.sessionTimeoutMs).to.equal(20000)
      expect(c.restoreConsumer.fetchMaxBytes).to.equal(2000)
    })

    it('shouldOverrideStreamsDefaultProducerConfigs: producer.linger.ms, producer.transaction.timeout.ms and producer.max.block.ms', () => {
      const c = clients({ producer: { 'linger.ms': '10000', 'transaction.timeout.ms': '30000', 'max.block.ms': 5000 } })
      expect(c.producer.lingerMs).to.equal(10000)
      expect(c.producer.transactionTimeoutMs).to.equal(30000)
      expect(c.producer.maxBlockMs).to.equal(5000)
      expect(c.producer.adapterConfigs).to.deep.equal({})
      expect(clients({}).producer.maxBlockMs, "Kafka's default").to.equal(60000)
    })

    it('shouldSupportNonPrefixedProducerConfigs: maxRequestSize, overridden by producer.max.request.size', () => {
      expect(clients({ maxRequestSize: 2000 }).producer.maxRequestSize).to.equal(2000)
      expect(clients({ maxRequestSize: 2000, producer: { 'max.request.size': 3000 } }).producer.maxRequestSize).to.equal(3000)
    })

    it('routes the keys the adapter honours to the adapter, per client', () => {
      const c = clients({
        consumer: { 'request.timeout.ms': 1000 },
        restoreConsumer: { 'request.timeout.ms': 2000 },
        producer: { 'compression.type': 'gzip', 'linger.ms': 5 },
        admin: { 'request.timeout.ms': 3000 }
      })
      expect(c.mainConsumer.adapterConfigs).to.deep.equal({ 'request.timeout.ms': 1000 })
      expect(c.restoreConsumer.adapterConfigs).to.deep.equal({ 'request.timeout.ms': 2000 })
      expect(c.producer.adapterConfigs).to.deep.equal({ 'compression.type': 'gzip' })
      expect(c.admin.adapterConfigs).to.deep.equal({ 'request.timeout.ms': 3000 })
    })

    it('shouldAllowSettingConsumerIsolationLevelIfEosDisabled; read_committed under exactly_once_v2', () => {
      expect(clients({ consumer: { 'isolation.level': 'read_committed' } }).mainConsumer.isolationLevel).to.equal('READ_COMMITTED')
      expect(clients({}).mainConsumer.isolationLevel).to.equal('READ_UNCOMMITTED')
      expect(clients({ processingGuarantee: 'exactly_once_v2' }).restoreConsumer.isolationLevel).to.equal('READ_COMMITTED')
    })

    it('topic configs become strings', () => {
      expect(clients({ topic: { 'min.insync.replicas': 2, 'segment.bytes': '1048576' } }).topic).to.deep.equal({
        'min.insync.replicas': '2',
        'segment.bytes': '1048576'
      })
    })
  })

  describe('rejected settings name the key', () => {
    it('a key neither the runtime nor the adapter honours', () => {
      expect(() => clients({ producer: { 'buffer.memory': 1 } }))
        .to.throw(ConfigError)
        .with.property('key', 'producer.buffer.memory')
    })

    it('an adapter key the adapter refuses the value of', () => {
      expect(() => clients({ producer: { 'compression.type': 'zstd' } }))
        .to.throw(ConfigError)
        .with.property('key', 'producer.compression.type')
    })

    it('an adapter key with an adapter that honours none', () => {
      expect(() => clients({ admin: { 'request.timeout.ms': 1 } }, {}))
        .to.throw(ConfigError)
        .with.property('key', 'admin.request.timeout.ms')
    })

    it('a bad value of a runtime key, already in resolveStreamsConfig', () => {
      expect(() => resolveStreamsConfig({ mainConsumer: { 'max.poll.records': 0 } }))
        .to.throw(ConfigError)
        .with.property('key', 'mainConsumer.max.poll.records')
      expect(() => resolveStreamsConfig({ consumer: { 'fetch.min.bytes': 'many' } }))
        .to.throw(ConfigError)
        .with.property('key', 'consumer.fetch.min.bytes')
    })

    it('keys Kafka Streams sets itself (group.id, bootstrap.servers, client.id, transactional.id)', () => {
      for (const [prefix, key] of [
        ['mainConsumer', 'group.id'],
        ['consumer', 'bootstrap.servers'],
        ['producer', 'client.id'],
        ['producer', 'transactional.id']
      ] as const) {
        expect(() => resolveStreamsConfig({ [prefix]: { [key]: 'x' } }))
          .to.throw(ConfigError)
          .with.property('key', `${prefix}.${key}`)
      }
    })

    it('settings kstreams cannot honour: enable.auto.commit=true, acks other than all, a non-classic group protocol', () => {
      expect(() => resolveStreamsConfig({ consumer: { 'enable.auto.commit': 'true' } }))
        .to.throw(ConfigError)
        .with.property('key', 'consumer.enable.auto.commit')
      expect(() => resolveStreamsConfig({ producer: { acks: 1 } }))
        .to.throw(ConfigError)
        .with.property('key', 'producer.acks')
      expect(() => resolveStreamsConfig({ consumer: { 'group.protocol': 'consumer' } }))
        .to.throw(ConfigError)
        .with.property('key', 'consumer.group.protocol')
      expect(resolveStreamsConfig({ consumer: { 'enable.auto.commit': false }, producer: { acks: 'all' } }).producer).to.deep.equal({
        acks: 'all'
      })
    })

    it('shouldThrowExceptionIfMaxInFlightRequestsGreaterThanFive', () => {
      expect(() => resolveStreamsConfig({ producer: { 'max.in.flight.requests.per.connection': 7 } }))
        .to.throw(ConfigError)
        .with.property('key', 'producer.max.in.flight.requests.per.connection')
    })

    it('isolation.level read_uncommitted under exactly_once_v2', () => {
      expect(() => resolveStreamsConfig({ processingGuarantee: 'exactly_once_v2', consumer: { 'isolation.level': 'read_uncommitted' } }))
        .to.throw(ConfigError)
        .with.property('key', 'consumer.isolation.level')
    })

    it('auto.offset.reset on the restore or global consumer (Kafka Streams sets "none" there)', () => {
      expect(() => resolveStreamsConfig({ restoreConsumer: { 'auto.offset.reset': 'latest' } }))
        .to.throw(ConfigError)
        .with.property('key', 'restoreConsumer.auto.offset.reset')
    })

    it('testGetMainConsumerConfigsWithSegmentBytesSmallerThanBatchSize: topic.segment.bytes below producer.batch.size', () => {
      expect(() => resolveStreamsConfig({ topic: { 'segment.bytes': 100 }, producer: { 'batch.size': 200 } }))
        .to.throw(ConfigError)
        .with.property('key', 'topic.segment.bytes')
      expect(resolveStreamsConfig({ topic: { 'segment.bytes': 300 }, producer: { 'batch.size': 200 } }).topic).to.deep.equal({
        'segment.bytes': 300
      })
    })

    it('a config object that is not an object of strings, numbers and booleans', () => {
      expect(() => resolveStreamsConfig({ consumer: 'max.poll.records=5' as never }))
        .to.throw(ConfigError)
        .with.property('key', 'consumer')
      expect(() => resolveStreamsConfig({ topic: { 'retention.ms': null as never } }))
        .to.throw(ConfigError)
        .with.property('key', 'topic')
    })

    it("Kafka's dotted prefixed keys at the top level point to the nested form", () => {
      expect(() => resolveStreamsConfig({ 'main.consumer.max.poll.records': 5 } as never))
        .to.throw(ConfigError, "mainConsumer: { 'max.poll.records'")
        .with.property('key', 'main.consumer.max.poll.records')
      expect(() => resolveStreamsConfig({ 'max.poll.records': 5 } as never)).to.throw(ConfigError, 'consumer, producer or admin')
      expect(() => resolveStreamsConfig({ 'num.stream.threads': 2 } as never)).to.throw(ConfigError, '"numStreamThreads"')
    })
  })
})

describe('operations configs', () => {
  it("have Kafka's defaults", () => {
    const c = resolveStreamsConfig({})
    expect(c.windowstoreChangelogAdditionalRetentionMs).to.equal(86_400_000)
    expect(c.repartitionPurgeIntervalMs).to.equal(30_000)
    expect(c.logSummaryIntervalMs).to.equal(120_000)
    expect(c.groupProtocol).to.equal('classic')
  })

  it('are checked', () => {
    expect(() => resolveStreamsConfig({ repartitionPurgeIntervalMs: -1 }))
      .to.throw(ConfigError)
      .with.property('key', 'repartitionPurgeIntervalMs')
    expect(() => resolveStreamsConfig({ groupProtocol: 'streams' as never }))
      .to.throw(ConfigError)
      .with.property('key', 'groupProtocol')
  })

  it('Kafka Streams keys kstreams cannot honour are rejected with the reason', () => {
    for (const key of ['rackAwareAssignmentStrategy', 'taskAssignorClass', 'metricReporters', 'ensureExplicitInternalResourceNaming']) {
      expect(() => resolveStreamsConfig({ [key]: 'x' } as never))
        .to.throw(ConfigError, /^Unsupported config/)
        .with.property('key', key)
    }
  })
})
