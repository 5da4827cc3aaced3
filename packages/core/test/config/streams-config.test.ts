import { expect } from 'chai'
import { Serdes, resolveStreamsConfig } from '../../src/index.js'

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
    ['defaultKeySerde', {}],
    ['defaultTimestampExtractor', 'x'],
    ['stateDir', '']
  ]
  for (const [key, value] of invalid) {
    it(`rejects ${key}=${JSON.stringify(value)} naming the key`, () => {
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
})
