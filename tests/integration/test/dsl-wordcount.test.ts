import { expect } from 'chai'
import { KafkaStreams, Serdes } from '@kstreams/core'
import { Consumed, Produced, StreamsBuilder } from '@kstreams/dsl'
import { bootstrapServers, createTopics, kafka, produce, readUntil, tempDir, unique, testClient } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

describe('DSL WordCount on a real broker', function () {
  this.timeout(120000)

  it('groupBy creates the prefixed repartition topic and counts every word', async () => {
    const prefix = unique('dslwc')
    await createTopics([
      { topic: `${prefix}-in`, numPartitions: 3 },
      { topic: `${prefix}-out`, numPartitions: 3 }
    ])
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>(`${prefix}-in`, Consumed.with(S, S))
      .flatMapValues(value =>
        value
          .toLowerCase()
          .split(/\W+/)
          .filter(w => w !== '')
      )
      .groupBy((_key, word) => word)
      .count()
      .toStream()
      .to(`${prefix}-out`, Produced.with(S, L))
    const state = await tempDir('kstreams-dsl')
    const appId = `${prefix}-app`
    const streams = new KafkaStreams(
      builder.build(),
      {
        applicationId: appId,
        bootstrapServers: bootstrapServers(),
        stateDir: state.path,
        commitIntervalMs: 200,
        defaultKeySerde: S,
        defaultValueSerde: S
      },
      { client: testClient() }
    )
    try {
      await streams.start()
      await produce(`${prefix}-in`, [
        { key: '1', value: 'Hello Kafka Streams' },
        { key: '2', value: 'All streams lead to Kafka' },
        { key: '3', value: 'Join Kafka Summit' }
      ])
      const expected = { hello: 1, kafka: 3, streams: 2, all: 1, lead: 1, to: 1, join: 1, summit: 1 }
      const out = await readUntil(
        `${prefix}-out`,
        (k, v) => [k!.toString(), Number(v!.readBigInt64BE())] as const,
        r => Object.entries(expected).every(([w, c]) => r.some(([k, n]) => k === w && n === c)),
        60000
      )
      const last = new Map<string, number>()
      for (const [w, c] of out) last.set(w, c)
      expect(Object.fromEntries(last)).to.deep.equal(expected)
      const admin = kafka().admin()
      await admin.connect()
      const topics = await admin.listTopics()
      await admin.disconnect()
      expect(topics.some(t => t.startsWith(`${appId}-`) && t.endsWith('-repartition'))).to.equal(true)
      expect(topics.some(t => t.startsWith(`${appId}-`) && t.endsWith('-changelog'))).to.equal(true)
    } finally {
      await streams.close()
      await state.remove()
    }
  })
})
