import { expect } from 'chai'
import { bootstrapServers, brokerProperties, randomClusterId, renderProperties, type BrokerNode } from '../src/broker-config.js'
import { resolveKafkaVersion } from '../src/kafka-version.js'

function node(id: number): BrokerNode {
  return {
    nodeId: id,
    port: 19090 + 2 * id,
    controllerPort: 19091 + 2 * id,
    dataDir: `/tmp/n${id}/data`,
    configPath: `/tmp/n${id}/server.properties`,
    logPath: `/tmp/n${id}/broker.log`
  }
}

describe('brokerProperties', () => {
  const k41 = resolveKafkaVersion('4.1.1')
  const k39 = resolveKafkaVersion('3.9.1')

  it('makes a single combined KRaft node on loopback with replication 1', () => {
    const one = [node(1)]
    const p = brokerProperties(one[0]!, one, k41)
    expect(p).to.include({
      'process.roles': 'broker,controller',
      'node.id': 1,
      'controller.quorum.voters': '1@127.0.0.1:19093',
      listeners: 'PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093',
      'advertised.listeners': 'PLAINTEXT://127.0.0.1:19092',
      'log.dirs': '/tmp/n1/data',
      'offsets.topic.replication.factor': 1,
      'transaction.state.log.replication.factor': 1,
      'transaction.state.log.min.isr': 1,
      'share.coordinator.state.topic.replication.factor': 1,
      'default.replication.factor': 1,
      'min.insync.replicas': 1,
      'group.initial.rebalance.delay.ms': 0,
      'auto.create.topics.enable': false
    })
  })

  it('gives three nodes one voter list, replication 3 and min ISR 2', () => {
    const three = [node(1), node(2), node(3)]
    const p = brokerProperties(three[1]!, three, k41)
    expect(p['node.id']).to.equal(2)
    expect(p['controller.quorum.voters']).to.equal('1@127.0.0.1:19093,2@127.0.0.1:19095,3@127.0.0.1:19097')
    expect(p['advertised.listeners']).to.equal('PLAINTEXT://127.0.0.1:19094')
    expect(p).to.include({
      'offsets.topic.replication.factor': 3,
      'transaction.state.log.replication.factor': 3,
      'transaction.state.log.min.isr': 2,
      'default.replication.factor': 3,
      'min.insync.replicas': 2
    })
  })

  it('leaves out the share coordinator keys on 3.x', () => {
    const p = brokerProperties(node(1), [node(1)], k39)
    expect(Object.keys(p).filter(k => k.startsWith('share.'))).to.deep.equal([])
  })

  it('applies autoCreateTopics and overrides last', () => {
    const p = brokerProperties(node(1), [node(1)], k41, {
      autoCreateTopics: true,
      overrides: { 'num.partitions': 4, 'log.retention.ms': 1000 }
    })
    expect(p).to.include({ 'auto.create.topics.enable': true, 'num.partitions': 4, 'log.retention.ms': 1000 })
  })

  it('renders key=value lines', () => {
    expect(renderProperties({ a: 1, 'b.c': 'x', d: false })).to.equal('a=1\nb.c=x\nd=false\n')
  })

  it('joins the client ports into bootstrap servers', () => {
    expect(bootstrapServers([node(1), node(2)])).to.equal('127.0.0.1:19092,127.0.0.1:19094')
  })
})

describe('randomClusterId', () => {
  it('is a 22-character base64url UUID that does not start with "-"', () => {
    const ids = new Set(Array.from({ length: 200 }, () => randomClusterId()))
    expect(ids.size).to.equal(200)
    for (const id of ids) {
      expect(id).to.match(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/)
      const bytes = Buffer.from(id, 'base64url')
      expect(bytes.length).to.equal(16)
      expect(bytes[6]! >> 4).to.equal(4)
    }
  })
})
