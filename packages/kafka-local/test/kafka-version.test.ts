import { expect } from 'chai'
import { DEFAULT_KAFKA_VERSION, FALLBACK_KAFKA_VERSION, resolveKafkaVersion } from '../src/kafka-version.js'
import { KafkaLocalError } from '../src/kafka-local-error.js'

describe('resolveKafkaVersion', () => {
  it('defaults to 4.1.1 with log4j2 and the share coordinator', () => {
    const v = resolveKafkaVersion()
    expect(v.version).to.equal(DEFAULT_KAFKA_VERSION)
    expect(v).to.include({ version: '4.1.1', major: 4, minor: 1, logging: 'log4j2', loggingVersion: '2.24.3', shareCoordinator: true })
  })

  it('maps the short forms to tested patch releases', () => {
    expect(resolveKafkaVersion('4.1').version).to.equal('4.1.1')
    expect(resolveKafkaVersion('3.9').version).to.equal(FALLBACK_KAFKA_VERSION)
  })

  it('uses reload4j and no share coordinator on 3.x', () => {
    expect(resolveKafkaVersion('3.9.1')).to.include({ logging: 'reload4j', loggingVersion: '1.2.25', shareCoordinator: false })
  })

  it('pins the log4j2 version Kafka itself ships', () => {
    expect(resolveKafkaVersion('4.1.2').loggingVersion).to.equal('2.25.3')
    expect(resolveKafkaVersion('4.0.0').loggingVersion).to.equal('2.24.3')
  })

  for (const bad of ['latest', '4.1.x', '2.8.2', '3.4.0', '']) {
    it(`rejects "${bad}" with INVALID_OPTION`, () => {
      expect(() => resolveKafkaVersion(bad))
        .to.throw(KafkaLocalError)
        .with.property('code', 'INVALID_OPTION')
    })
  }
})
