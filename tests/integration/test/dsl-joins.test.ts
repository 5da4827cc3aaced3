/**
 * DSL joins on a real broker: the runtime honours the co-partition groups joins declare. A
 * re-keyed stream joined with a table goes through a repartition topic that must get the table
 * topic's partition count (else keys land in tasks that do not hold their table partition); two
 * user topics with different partition counts cannot be joined.
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes, type KafkaStreamsState } from '@kstreams/core'
import { Consumed, JoinWindows, Produced, StreamsBuilder } from '@kstreams/dsl'
import { bootstrapServers, createTopics, kafka, produce, readUntil, tempDir, unique, waitFor, testClient } from './helpers.js'

const S = Serdes.String()

/** Waits until the group has committed `records` records of the topic (the sum of its committed offsets). */
async function waitForCommitted(groupId: string, topic: string, records: number, timeoutMs = 60000): Promise<void> {
  const admin = kafka().admin()
  await admin.connect()
  try {
    const deadline = Date.now() + timeoutMs
    let committed = 0
    while (committed < records) {
      if (Date.now() > deadline)
        throw new Error(
          `Timed out after ${timeoutMs} ms waiting for ${groupId} to commit ${records} records of ${topic}; committed ${committed}`
        )
      await new Promise(resolve => setTimeout(resolve, 100))
      const offsets = await admin.fetchOffsets({ groupId, topics: [topic] })
      committed = offsets.flatMap(t => t.partitions).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0)
    }
  } finally {
    await admin.disconnect()
  }
}

describe('DSL joins on a real broker', function () {
  this.timeout(120000)

  it("a re-keyed stream joined with a table: the repartition topic gets the table topic's partition count; every order is joined", async () => {
    const prefix = unique('dsljoin')
    await createTopics([
      { topic: `${prefix}-orders`, numPartitions: 2 },
      { topic: `${prefix}-customers`, numPartitions: 5 },
      { topic: `${prefix}-out`, numPartitions: 1 }
    ])
    const customers = Array.from({ length: 50 }, (_, i) => `c${i}`)
    await produce(
      `${prefix}-customers`,
      customers.map(c => ({ key: c, value: c.toUpperCase() }))
    )
    const builder = new StreamsBuilder()
    const table = builder.table(`${prefix}-customers`, Consumed.with(S, S))
    builder
      .stream(`${prefix}-orders`, Consumed.with(S, S))
      .selectKey((_orderId, customer) => customer)
      .join(table, (customer, name) => `${customer}->${name!}`)
      .to(`${prefix}-out`, Produced.with(S, S))
    const state = await tempDir('kstreams-dsljoin')
    const appId = `${prefix}-app`
    // selectKey drops the key serde: the repartition topic uses the configured defaults, as in Kafka Streams.
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
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      // Orders only after the table is loaded: a stream-table join reads the table as it is then.
      // Loaded = the application committed the end of the customers topic (not a fixed sleep:
      // a slow machine may need longer).
      await waitForCommitted(appId, `${prefix}-customers`, customers.length)
      await produce(
        `${prefix}-orders`,
        customers.map((c, i) => ({ key: `o${i}`, value: c }))
      )
      const out = await readUntil(
        `${prefix}-out`,
        (k, v) => `${k!.toString()}:${v!.toString()}`,
        r => r.length >= customers.length,
        60000
      )
      expect(new Set(out)).to.deep.equal(new Set(customers.map(c => `${c}:${c}->${c.toUpperCase()}`)))
      const admin = kafka().admin()
      await admin.connect()
      const topics = (await admin.listTopics()).filter(t => t.startsWith(`${appId}-`) && t.endsWith('-repartition'))
      const meta = await admin.fetchTopicMetadata({ topics })
      await admin.disconnect()
      expect(meta.topics.map(t => t.partitions.length)).to.deep.equal([5])
    } finally {
      await streams.close()
      await state.remove()
    }
  })

  it('a stream-stream join of two user topics with different partition counts fails the application with a typed error', async () => {
    const prefix = unique('dsljoinbad')
    await createTopics([
      { topic: `${prefix}-left`, numPartitions: 2 },
      { topic: `${prefix}-right`, numPartitions: 3 }
    ])
    const builder = new StreamsBuilder()
    builder
      .stream(`${prefix}-left`, Consumed.with(S, S))
      .join(builder.stream(`${prefix}-right`, Consumed.with(S, S)), (l, r) => l + r, JoinWindows.ofTimeDifferenceWithNoGrace(1000))
      .to(`${prefix}-out`, Produced.with(S, S))
    const state = await tempDir('kstreams-dsljoinbad')
    const streams = new KafkaStreams(
      builder.build(),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: state.path },
      { client: testClient() }
    )
    const errors: string[] = []
    streams.setUncaughtExceptionHandler(error => {
      errors.push(`${error.code}: ${error.message}`)
      return 'SHUTDOWN_CLIENT'
    })
    const states: KafkaStreamsState[] = []
    streams.setStateListener(to => {
      states.push(to)
    })
    try {
      await streams.start().catch((err: Error) => {
        errors.push(err.message)
      })
      await waitFor('the application to fail', () => errors.length > 0 || streams.state() === 'ERROR', 60000)
      expect(errors.join('\n')).to.match(/co-partitioned/)
    } finally {
      await streams.close()
      await state.remove()
    }
  })
})
