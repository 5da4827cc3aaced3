import { expect } from 'chai'
import { KafkaStreams, Serdes, Topology, type KafkaStreamsState } from '@kstreams/core'
import { bootstrapServers, createTopics, tempDir, unique, waitFor, testClient } from './helpers.js'
import { kafkajs } from '@kstreams/kafkajs'

const S = Serdes.String()
const passThrough = (input: string, output: string): Topology =>
  new Topology()
    .addSource('in', input, { keyDeserializer: S, valueDeserializer: S })
    .addSink('out', output, { keySerializer: S, valueSerializer: S }, 'in')

describe('KafkaStreams lifecycle', function () {
  this.timeout(60000)

  it('rejects a missing applicationId or bootstrapServers and unknown keys, naming the key', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bootstrapServers: 'localhost:9092' }, 'applicationId'],
      [{ applicationId: 'app' }, 'bootstrapServers'],
      [{ applicationId: 'app', bootstrapServers: 'localhost:9092', numStreamThread: 2 }, 'numStreamThread'],
      [{ applicationId: 'app', bootstrapServers: 'localhost:9092', processingGuarantee: 'exactly_once' }, 'processingGuarantee'],
      [{ applicationId: 'app', bootstrapServers: 'localhost:9092', processingGuarantee: 'exactly_once_v2' }, 'processingGuarantee']
    ]
    for (const [config, key] of cases) {
      let err: any
      try {
        new KafkaStreams(passThrough('a', 'b'), config as any, { client: kafkajs() })
      } catch (e) {
        err = e
      }
      expect(err, key).to.have.property('code', 'INVALID_CONFIG')
      expect(err).to.have.property('key', key)
    }
  })

  it('goes CREATED -> REBALANCING -> RUNNING -> PENDING_SHUTDOWN -> NOT_RUNNING; start twice and late listeners are rejected; cleanUp only when stopped', async () => {
    const prefix = unique('life')
    await createTopics([
      { topic: `${prefix}-in`, numPartitions: 1 },
      { topic: `${prefix}-out`, numPartitions: 1 }
    ])
    const state = await tempDir('kstreams-life')
    const streams = new KafkaStreams(
      passThrough(`${prefix}-in`, `${prefix}-out`),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: state.path },
      { client: testClient() }
    )
    const transitions: Array<[KafkaStreamsState, KafkaStreamsState]> = []
    streams.setStateListener((to, from) => transitions.push([from, to]))
    expect(streams.state()).to.equal('CREATED')
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 30000)
      let err: any
      try {
        await streams.start()
      } catch (e) {
        err = e
      }
      expect(err).to.have.property('code', 'ILLEGAL_STATE')
      expect(() => streams.setStateListener(() => {}))
        .to.throw()
        .with.property('code', 'ILLEGAL_STATE')
      err = undefined
      try {
        await streams.cleanUp()
      } catch (e) {
        err = e
      }
      expect(err).to.have.property('code', 'ILLEGAL_STATE')
      // A second instance on the same state directory is kept out by the lock.
      const twin = new KafkaStreams(
        passThrough(`${prefix}-in`, `${prefix}-out`),
        { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: state.path },
        { client: testClient() }
      )
      err = undefined
      try {
        await twin.start()
      } catch (e) {
        err = e
      }
      expect(err).to.have.property('code', 'STATE_DIR_LOCKED')
      expect(twin.state()).to.equal('ERROR')
    } finally {
      expect(await streams.close()).to.equal(true)
      expect(await streams.close()).to.equal(true)
    }
    await streams.cleanUp()
    await state.remove()
    expect(transitions).to.deep.equal([
      ['CREATED', 'REBALANCING'],
      ['REBALANCING', 'RUNNING'],
      ['RUNNING', 'PENDING_SHUTDOWN'],
      ['PENDING_SHUTDOWN', 'NOT_RUNNING']
    ])
  })
})
