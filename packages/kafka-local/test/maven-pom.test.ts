import { expect } from 'chai'
import { brokerDependencies, brokerPom } from '../src/maven-pom.js'
import { resolveKafkaVersion } from '../src/kafka-version.js'

const ids = (version: string): string[] =>
  brokerDependencies(resolveKafkaVersion(version)).map(d => `${d.groupId}:${d.artifactId}:${d.version}`)

describe('brokerPom', () => {
  it('fetches kafka_2.13 plus the SLF4J 1.7 binding for log4j2 on 4.x, versions pinned', () => {
    expect(ids('4.1.1')).to.deep.equal([
      'org.apache.kafka:kafka_2.13:4.1.1',
      'org.slf4j:slf4j-api:1.7.36',
      'org.apache.logging.log4j:log4j-api:2.24.3',
      'org.apache.logging.log4j:log4j-core:2.24.3',
      'org.apache.logging.log4j:log4j-slf4j-impl:2.24.3'
    ])
  })

  it('uses slf4j-reload4j on 3.x', () => {
    expect(ids('3.9.1')).to.deep.equal([
      'org.apache.kafka:kafka_2.13:3.9.1',
      'org.slf4j:slf4j-api:1.7.36',
      'org.slf4j:slf4j-reload4j:1.7.36',
      'ch.qos.reload4j:reload4j:1.2.25'
    ])
  })

  it('is a pom-packaged project that excludes logback from kafka_2.13', () => {
    const pom = brokerPom(resolveKafkaVersion('4.1.1'))
    expect(pom).to.contain('<packaging>pom</packaging>')
    expect(pom).to.contain('<artifactId>kafka_2.13</artifactId>\n      <version>4.1.1</version>\n      <exclusions>')
    expect(pom).to.contain('<groupId>ch.qos.logback</groupId>')
    expect(pom.match(/<dependency>/g)).to.have.length(5)
  })
})
