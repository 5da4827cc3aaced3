/**
 * Dead-letter queues (KIP-1034) on a real broker, after Kafka's DeadLetterQueueIntegrationTest:
 * with `errorsDeadLetterQueueTopicName` and the logAndContinue handlers, a record that cannot be
 * deserialized and a record whose processing throws both end up in the dead-letter topic with
 * their raw bytes, their own headers and the `__streams.errors.*` headers; every good record is
 * in the output exactly once. Runs on the suite's client (KSTREAMS_TEST_CLIENT) at-least-once,
 * and under exactly_once_v2 on @kstreams/platformatic (the dead-letter records are in the task's
 * transaction: a read_committed reader sees them).
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes, Topology, type KafkaClient, type ProcessorContext, type Record } from '@kstreams/core'
import { platformatic } from '@kstreams/platformatic'
import { bootstrapServers, createTopics, kafka, tempDir, testClient, testClientName, unique, waitFor } from './helpers.js'

interface Read {
  key: string | null
  value: Buffer | null
  headers: Map<string, string | null>
}

/** Doubles Integer values and throws on 13; a 3-byte value cannot be deserialized as an Integer. */
function doublingUnlessUnlucky(input: string, output: string): Topology {
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
            if (r.value === 13) throw new Error('unlucky 13')
            ctx.forward(r.withValue(r.value * 2))
          }
        }
      },
      'in'
    )
    .addSink('out', output, { keySerializer: Serdes.String(), valueSerializer: Serdes.Integer() }, 'double')
}

const int = (n: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}
const POISON = Buffer.from([1, 2, 3])

/** Reads a whole topic (read_committed) until `count` records arrived or the timeout passed. */
async function readAll(topic: string, count: number, timeoutMs: number): Promise<Read[]> {
  const consumer = kafka().consumer({ groupId: unique('dlq-reader') })
  const records: Read[] = []
  await consumer.connect()
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  let resolveDone!: () => void
  const done = new Promise<void>(resolve => {
    resolveDone = resolve
  })
  await consumer.run({
    eachMessage: async ({ message }) => {
      const headers = new Map<string, string | null>()
      for (const [k, v] of Object.entries(message.headers ?? {})) {
        const value = Array.isArray(v) ? v[v.length - 1] : v
        headers.set(k, value === undefined || value === null ? null : value.toString())
      }
      records.push({ key: message.key?.toString() ?? null, value: message.value, headers })
      if (records.length >= count) resolveDone()
    }
  })
  const timer = setTimeout(resolveDone, timeoutMs)
  await done
  clearTimeout(timer)
  await consumer.disconnect()
  return records
}

const cases: Array<{ guarantee: 'at_least_once' | 'exactly_once_v2'; client: () => KafkaClient; name: string }> = [
  { guarantee: 'at_least_once', client: testClient, name: testClientName() },
  { guarantee: 'exactly_once_v2', client: platformatic, name: 'platformatic' }
]

describe('Dead letter queues on a real broker (KIP-1034)', function () {
  this.timeout(180000)

  for (const { guarantee, client, name } of cases) {
    it(`${guarantee} on ${name}: a poison record and a processing failure land in the dead-letter topic with raw bytes and headers; each good record is output once`, async () => {
      const prefix = unique('dlq')
      const [input, output, dlq] = [`${prefix}-in`, `${prefix}-out`, `${prefix}-dlq`]
      await createTopics([
        { topic: input, numPartitions: 1 },
        { topic: output, numPartitions: 1 },
        { topic: dlq, numPartitions: 1 }
      ])
      const producer = kafka().producer()
      await producer.connect()
      await producer.send({
        topic: input,
        messages: [
          { key: 'k0', value: int(1) },
          { key: 'k1', value: POISON, headers: { origin: 'sensor-7' } },
          { key: 'k2', value: int(3) },
          { key: 'k3', value: int(13), headers: { origin: 'sensor-9' } },
          { key: 'k4', value: int(5) }
        ]
      })
      await producer.disconnect()

      const state = await tempDir('kstreams-dlq')
      const streams = new KafkaStreams(
        doublingUnlessUnlucky(input, output),
        {
          applicationId: `${prefix}-app`,
          bootstrapServers: bootstrapServers(),
          stateDir: state.path,
          processingGuarantee: guarantee,
          commitIntervalMs: 100,
          deserializationExceptionHandler: 'logAndContinue',
          processingExceptionHandler: 'logAndContinue',
          errorsDeadLetterQueueTopicName: dlq
        },
        { client: client() }
      )
      const errors: Error[] = []
      streams.setUncaughtExceptionHandler(err => {
        errors.push(err)
        return 'SHUTDOWN_CLIENT'
      })
      try {
        await streams.start()
        const dead = await readAll(dlq, 2, 60000)
        const out = await readAll(output, 3, 60000)
        expect(errors).to.deep.equal([])
        // Everything the app will write is committed once the input's committed offset is at its end.
        await waitFor(
          'input committed to its end',
          async () => {
            const admin = kafka().admin()
            await admin.connect()
            try {
              const offsets = await admin.fetchOffsets({ groupId: `${prefix}-app`, topics: [input] })
              return offsets[0]?.partitions[0]?.offset === '5'
            } finally {
              await admin.disconnect()
            }
          },
          60000
        )
        expect(out.map(r => [r.key, r.value?.readInt32BE()])).to.deep.equal([
          ['k0', 2],
          ['k2', 6],
          ['k4', 10]
        ])
        expect(dead.map(r => [r.key, r.value?.toString('hex')])).to.deep.equal([
          ['k1', POISON.toString('hex')],
          ['k3', int(13).toString('hex')]
        ])
        const [poison, failed] = dead as [Read, Read]
        expect(poison.headers.get('origin')).to.equal('sensor-7')
        expect(poison.headers.get('__streams.errors.exception')).to.equal('SerializationError')
        expect(poison.headers.get('__streams.errors.message')).to.be.a('string').and.not.equal('')
        expect(poison.headers.get('__streams.errors.stacktrace')).to.contain('SerializationError')
        expect(poison.headers.get('__streams.errors.topic')).to.equal(input)
        expect(poison.headers.get('__streams.errors.partition')).to.equal('0')
        expect(poison.headers.get('__streams.errors.offset')).to.equal('1')
        expect(failed.headers.get('origin')).to.equal('sensor-9')
        expect(failed.headers.get('__streams.errors.exception')).to.equal('Error')
        expect(failed.headers.get('__streams.errors.message')).to.equal('unlucky 13')
        expect(failed.headers.get('__streams.errors.stacktrace')).to.contain('unlucky 13')
        expect(failed.headers.get('__streams.errors.topic')).to.equal(input)
        expect(failed.headers.get('__streams.errors.offset')).to.equal('3')
        const dropped = streams
          .metrics()
          .filter(m => m.name === 'dropped-records-total')
          .reduce((a, m) => a + m.value, 0)
        expect(dropped).to.equal(2)
      } finally {
        await streams.close()
        await state.remove()
      }
      // Nothing more arrives after the close: no duplicate of a good record, no second dead letter.
      expect((await readAll(output, 4, 3000)).length).to.equal(3)
      expect((await readAll(dlq, 3, 3000)).length).to.equal(2)
    })
  }
})
