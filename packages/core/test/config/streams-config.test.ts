import { expect } from 'chai'
import { AutoOffsetReset, Serdes, StreamsError, Topology, resolveStreamsConfig } from '../../src/index.js'

describe('resolveStreamsConfig', () => {
  it('fills in Kafka Streams defaults', () => {
    const c = resolveStreamsConfig({ applicationId: 'app', bootstrapServers: 'a:9092, b:9092' })
    expect(c.bootstrapServers).to.deep.equal(['a:9092', 'b:9092'])
    expect(c.numStreamThreads).to.equal(1)
    expect(c.commitIntervalMs).to.equal(30000)
    expect(c.statestoreCacheMaxBytes).to.equal(10485760)
    expect(c.processingGuarantee).to.equal('at_least_once')
    expect(c.maxTaskIdleMs).to.equal(0)
    expect(c.replicationFactor).to.equal(-1)
    expect(Object.isFrozen(c)).to.equal(true)
  })

  it('uses a 100 ms commit interval under exactly_once_v2 unless set', () => {
    expect(resolveStreamsConfig({ processingGuarantee: 'exactly_once_v2' }).commitIntervalMs).to.equal(100)
    expect(resolveStreamsConfig({ processingGuarantee: 'exactly_once_v2', commitIntervalMs: 5 }).commitIntervalMs).to.equal(5)
  })

  const invalid: Array<[string, unknown]> = [
    ['applicationId', 'has space'],
    ['applicationId', ''],
    ['numStreamThreads', 0],
    ['numStreamThreads', 1.5],
    ['commitIntervalMs', -1],
    ['processingGuarantee', 'exactly_once'],
    ['replicationFactor', 0],
    ['maxTaskIdleMs', -2],
    ['applicationServer', 'nohostport'],
    // Kafka's rules for a topic name prefix and a directory name: at most 249 characters, not . or ..
    ['applicationId', '..'],
    ['applicationId', '.'],
    ['applicationId', 'a'.repeat(250)],
    ['applicationServer', 'localhost:99999'],
    ['applicationServer', 'localhost:0'],
    ['applicationServer', ':8080'],
    ['applicationServer', '[::1]'],
    ['applicationServer', 'my host:8080'],
    ['bootstrapServers', ''],
    ['bootstrapServers', ' , '],
    ['bootstrapServers', []],
    ['bootstrapServers', ['', ' ']],
    // The Java consumer's rule: heartbeat.interval.ms lower than session.timeout.ms (defaults 3000 and 45000).
    ['sessionTimeoutMs', 3000],
    ['heartbeatIntervalMs', 45000],
    ['defaultKeySerde', {}],
    ['defaultTimestampExtractor', 'x'],
    ['stateDir', ''],
    ['autoOffsetReset', 'smallest'],
    ['autoOffsetReset', 'by_duration'],
    ['autoOffsetReset', 'by_duration:'],
    ['autoOffsetReset', 'by_duration:1h'],
    ['autoOffsetReset', 'by_duration:PT'],
    ['autoOffsetReset', 'by_duration:P1DT'],
    ['autoOffsetReset', 'by_duration:-PT1H'],
    ['autoOffsetReset', 'by_duration:PT-1S'],
    ['autoOffsetReset', 'by_duration:PT1.0000000001S'],
    ['autoOffsetReset', { type: 'by_duration', durationMs: -1 }],
    ['autoOffsetReset', { type: 'by_duration', durationMs: 1.5 }]
  ]
  for (const [key, value] of invalid) {
    it(`rejects ${key}=${JSON.stringify(value).slice(0, 40)} naming the key`, () => {
      let err: any
      try {
        resolveStreamsConfig({ [key]: value } as any)
      } catch (e) {
        err = e
      }
      expect(err).to.have.property('code', 'INVALID_CONFIG')
      expect(err).to.have.property('key', key)
      expect(err.message).to.contain(key)
    })
  }

  it('accepts a 249-character applicationId', () => {
    expect(resolveStreamsConfig({ applicationId: 'a'.repeat(249) }).applicationId).to.have.length(249)
  })

  it('accepts an IPv6 applicationServer with or without brackets, as Kafka, and keeps it in brackets', () => {
    expect(resolveStreamsConfig({ applicationServer: '[::1]:8080' }).applicationServer).to.equal('[::1]:8080')
    expect(resolveStreamsConfig({ applicationServer: '::1:8080' }).applicationServer).to.equal('[::1]:8080')
    expect(resolveStreamsConfig({ applicationServer: 'fe80::1%eth0:1' }).applicationServer).to.equal('[fe80::1%eth0]:1')
    expect(resolveStreamsConfig({ applicationServer: 'my-host.example:65535' }).applicationServer).to.equal('my-host.example:65535')
  })

  it('bootstrapServers: trimmed, blanks dropped, a string or an array of them', () => {
    expect(resolveStreamsConfig({ bootstrapServers: ' a:1,,b:2 ' }).bootstrapServers).to.deep.equal(['a:1', 'b:2'])
    expect(resolveStreamsConfig({ bootstrapServers: ['a:1', ' ', 'b:2,c:3'] }).bootstrapServers).to.deep.equal(['a:1', 'b:2', 'c:3'])
  })

  it('a heartbeat interval not lower than the session timeout names the heartbeat key that was set', () => {
    const keyOf = (config: Parameters<typeof resolveStreamsConfig>[0]): unknown => {
      try {
        resolveStreamsConfig(config)
      } catch (e) {
        return [(e as StreamsError).code, (e as { key?: unknown }).key]
      }
      return 'accepted'
    }
    expect(keyOf({ sessionTimeoutMs: 1000, heartbeatIntervalMs: 5000 })).to.deep.equal(['INVALID_CONFIG', 'heartbeatIntervalMs'])
    expect(keyOf({ sessionTimeoutMs: 1000, heartbeatIntervalMs: 1000 })).to.deep.equal(['INVALID_CONFIG', 'heartbeatIntervalMs'])
    expect(keyOf({ consumer: { 'session.timeout.ms': 2000 } })).to.deep.equal(['INVALID_CONFIG', 'consumer.session.timeout.ms'])
    expect(keyOf({ heartbeatIntervalMs: 100, mainConsumer: { 'heartbeat.interval.ms': 50000 } })).to.deep.equal([
      'INVALID_CONFIG',
      'mainConsumer.heartbeat.interval.ms'
    ])
    expect(keyOf({ sessionTimeoutMs: 1000, heartbeatIntervalMs: 999 })).to.equal('accepted')
  })

  it('rejects unknown keys (e.g. Java spellings), naming them', () => {
    let err: any
    try {
      resolveStreamsConfig({ 'application.id': 'x' } as any)
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'INVALID_CONFIG')
    expect(err).to.have.property('key', 'application.id')
  })

  it('accepts serdes and -1 for maxTaskIdleMs', () => {
    const c = resolveStreamsConfig({ defaultKeySerde: Serdes.String(), maxTaskIdleMs: -1 })
    expect(c.defaultKeySerde).to.not.equal(undefined)
    expect(c.maxTaskIdleMs).to.equal(-1)
  })

  it("autoOffsetReset: 'earliest' by default; 'by_duration:<ISO-8601>' as Java's Duration.parse reads it (KIP-1106)", () => {
    expect(resolveStreamsConfig({}).autoOffsetReset).to.equal('earliest')
    expect(resolveStreamsConfig({ autoOffsetReset: 'none' }).autoOffsetReset).to.equal('none')
    const ms = (value: string): unknown => resolveStreamsConfig({ autoOffsetReset: value as 'by_duration:' }).autoOffsetReset
    expect(ms('by_duration:PT1H')).to.deep.equal({ type: 'by_duration', durationMs: 3_600_000 })
    expect(ms('by_duration:P1DT2H3M4.5S')).to.deep.equal({ type: 'by_duration', durationMs: 93_784_500 })
    expect(ms('by_duration:pt0.0009s')).to.deep.equal({ type: 'by_duration', durationMs: 0 })
    expect(ms('by_duration:PT1M-30S')).to.deep.equal({ type: 'by_duration', durationMs: 30_000 })
    expect(ms('by_duration:-PT-2S')).to.deep.equal({ type: 'by_duration', durationMs: 2_000 })
    expect(ms('by_duration:PT0S')).to.deep.equal({ type: 'by_duration', durationMs: 0 })
    expect(resolveStreamsConfig({ autoOffsetReset: AutoOffsetReset.byDuration(60_000) }).autoOffsetReset).to.deep.equal({
      type: 'by_duration',
      durationMs: 60_000
    })
  })

  it('AutoOffsetReset: earliest/latest/none, and byDuration rejects a negative or fractional duration (ILLEGAL_ARGUMENT)', () => {
    expect([AutoOffsetReset.earliest(), AutoOffsetReset.latest(), AutoOffsetReset.none()]).to.deep.equal(['earliest', 'latest', 'none'])
    const policy = AutoOffsetReset.byDuration(0)
    expect(policy).to.deep.equal({ type: 'by_duration', durationMs: 0 })
    expect(Object.isFrozen(policy)).to.equal(true)
    expect(() => AutoOffsetReset.byDuration(-1))
      .to.throw(StreamsError, 'Duration cannot be negative')
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => AutoOffsetReset.byDuration(Number.NaN))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('a source accepts a byDuration policy; an unknown policy is TOPOLOGY_INVALID naming the source', () => {
    expect(() => new Topology().addSource('s', 't', { offsetReset: AutoOffsetReset.byDuration(5) })).to.not.throw()
    expect(() => new Topology().addSource('s', 't', { offsetReset: { type: 'by_duration', durationMs: -5 } }))
      .to.throw(StreamsError, 'Source s has an unknown offset reset')
      .with.property('code', 'TOPOLOGY_INVALID')
  })
})
