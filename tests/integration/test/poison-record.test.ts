import { expect } from 'chai'
import { KafkaStreams, Serdes, Topology, type ProcessorContext, type Record } from '@kstreams/core'
import { bootstrapServers, createTopics, kafka, readUntil, tempDir, unique, waitFor, testClient } from './helpers.js'

/** Doubles Integer values; a 3-byte value cannot be deserialized as an Integer. */
function doubling(input: string, output: string): Topology {
  return new Topology()
    .addSource('in', input, { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.Integer() })
    .addProcessor(
      'double',
      () => {
        let ctx: ProcessorContext<string, number>
        return {
          init(c: ProcessorContext<string, number>) {
            ctx = c
          },
          process(r: Record<string, number>) {
            ctx.forward(r.withValue(r.value * 2))
          }
        }
      },
      'in'
    )
    .addSink('out', output, { keySerializer: Serdes.String(), valueSerializer: Serdes.Integer() }, 'double')
}

async function produceRaw(topic: string, values: Buffer[]): Promise<void> {
  const producer = kafka().producer()
  await producer.connect()
  await producer.send({ topic, messages: values.map((value, i) => ({ key: `k${i}`, value })) })
  await producer.disconnect()
}

const int = (n: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}
const POISON = Buffer.from([1, 2, 3])

describe('A poison record on a real broker', function () {
  this.timeout(120000)

  it('with logAndContinue it is skipped and counted in dropped-records-total; the rest is processed', async () => {
    const prefix = unique('poison-c')
    await createTopics([
      { topic: `${prefix}-in`, numPartitions: 1 },
      { topic: `${prefix}-out`, numPartitions: 1 }
    ])
    await produceRaw(`${prefix}-in`, [int(1), POISON, int(3)])
    const state = await tempDir('kstreams-poison')
    const streams = new KafkaStreams(
      doubling(`${prefix}-in`, `${prefix}-out`),
      {
        applicationId: `${prefix}-app`,
        bootstrapServers: bootstrapServers(),
        stateDir: state.path,
        commitIntervalMs: 100,
        deserializationExceptionHandler: 'logAndContinue'
      },
      { client: testClient() }
    )
    try {
      await streams.start()
      const out = await readUntil(
        `${prefix}-out`,
        (_k, v) => v!.readInt32BE(),
        r => r.length >= 2,
        60000
      )
      expect(out).to.deep.equal([2, 6])
      const dropped = streams
        .metrics()
        .filter(m => m.name === 'dropped-records-total')
        .reduce((a, m) => a + m.value, 0)
      expect(dropped).to.equal(1)
    } finally {
      await streams.close()
      await state.remove()
    }
  })

  it('with logAndFail the instance stops in ERROR naming topic, partition and offset; a restart loses nothing after it', async () => {
    const prefix = unique('poison-f')
    await createTopics([
      { topic: `${prefix}-in`, numPartitions: 1 },
      { topic: `${prefix}-out`, numPartitions: 1 }
    ])
    await produceRaw(`${prefix}-in`, [int(1), POISON, int(3)])
    const state = await tempDir('kstreams-poison')
    const config = { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: state.path, commitIntervalMs: 100 }
    const failing = new KafkaStreams(doubling(`${prefix}-in`, `${prefix}-out`), config, { client: testClient() })
    const errors: Error[] = []
    failing.setUncaughtExceptionHandler(err => {
      errors.push(err)
      return 'SHUTDOWN_CLIENT'
    })
    try {
      await failing.start()
      await waitFor('ERROR', () => failing.state() === 'ERROR', 60000)
    } finally {
      await failing.close()
    }
    expect(errors).to.have.length(1)
    expect(errors[0]!.message).to.contain(`topic ${prefix}-in, partition 0, offset 1`)
    // The record before the poison one was processed and committed; the one after it was not lost:
    // a restart that skips bad records processes it.
    const restarted = new KafkaStreams(
      doubling(`${prefix}-in`, `${prefix}-out`),
      { ...config, deserializationExceptionHandler: 'logAndContinue' },
      { client: testClient() }
    )
    try {
      await restarted.start()
      const out = await readUntil(
        `${prefix}-out`,
        (_k, v) => v!.readInt32BE(),
        r => r.includes(6),
        60000
      )
      expect(out).to.include(2)
      expect(out).to.include(6)
    } finally {
      await restarted.close()
      await state.remove()
    }
  })
})
