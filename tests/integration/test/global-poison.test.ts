/**
 * A record of a global topic that cannot be deserialized, on a real broker: with
 * logAndContinue the global thread skips it (bootstrap and afterwards) and counts it in
 * dropped-records-total of task -1_-1; with logAndFail (the default) start() fails with a typed
 * error naming topic, partition and offset.
 */
import { expect } from 'chai'
import {
  KafkaStreams,
  QueryableStoreTypes,
  SerializationError,
  Serdes,
  Topology,
  type KeyValueStore,
  type ProcessorContext,
  type Record,
  type StreamsConfig
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { bootstrapServers, createTopics, kafka, tempDir, unique, waitFor, testClient } from './helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()
const int = (n: number): Buffer => I.serializer().serialize('limits', n)!

function topology(limits: string, numbers: string): Topology {
  return new Topology()
    .addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('limits'), S, I).withLoggingDisabled(),
      'limits-source',
      { keyDeserializer: S, valueDeserializer: I },
      limits,
      'limits-updater',
      () => {
        let store: KeyValueStore<string, number>
        return {
          init(ctx: ProcessorContext<never, never>) {
            store = ctx.getStateStore('limits')
          },
          process(r: Record<string, number>) {
            store.put(r.key, r.value)
          }
        }
      }
    )
    .addSource('source', numbers, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('noop', () => ({ process() {} }), 'source')
}

describe('A poison record in a global topic (real broker)', function () {
  this.timeout(120000)

  it('logAndContinue skips and counts it, during bootstrap and afterwards; logAndFail fails start() naming where it is', async () => {
    const prefix = unique('globalpoison')
    const [limits, numbers] = [`${prefix}-limits`, `${prefix}-numbers`]
    await createTopics([
      { topic: limits, numPartitions: 1 },
      { topic: numbers, numPartitions: 1 }
    ])
    const producer = kafka().producer()
    await producer.connect()
    const dirs = await Promise.all([0, 1].map(async () => await tempDir('kstreams-globalpoison')))
    const config = (stateDir: string, extra: Partial<StreamsConfig> = {}): StreamsConfig => ({
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir,
      commitIntervalMs: 200,
      ...extra
    })
    let continuing: KafkaStreams | undefined
    try {
      await producer.send({
        topic: limits,
        messages: [
          { key: 'x', value: int(10) },
          { key: 'bad', value: Buffer.from('xyz') },
          { key: 'y', value: int(20) }
        ]
      })

      const failing = new KafkaStreams(topology(limits, numbers), config(dirs[0]!.path), { client: testClient() })
      const err = await failing.start().then(
        () => undefined,
        (e: unknown) => e
      )
      expect(err).to.be.instanceOf(SerializationError)
      expect((err as Error).message).to.contain(`topic ${limits}, partition 0, offset 1`)
      await failing.close()

      continuing = new KafkaStreams(
        topology(limits, numbers),
        config(dirs[1]!.path, { deserializationExceptionHandler: 'logAndContinue' }),
        { client: testClient() }
      )
      await continuing.start()
      const dropped = (): number | undefined =>
        continuing!.metrics().find(m => m.name === 'dropped-records-total' && m.tags['task-id'] === '-1_-1')?.value
      expect(dropped()).to.equal(1)
      await producer.send({
        topic: limits,
        messages: [
          { key: 'bad2', value: Buffer.from('?') },
          { key: 'z', value: int(30) }
        ]
      })
      await waitFor(
        'z in the global store and the second bad record counted',
        () => dropped() === 2 && readLimit(continuing!, 'z') === 30,
        60000
      )
      expect(['x', 'y', 'bad', 'bad2'].map(k => readLimit(continuing!, k))).to.deep.equal([10, 20, null, null])
    } finally {
      await producer.disconnect()
      await continuing?.close()
      for (const d of dirs) await d.remove()
    }
  })
})

function readLimit(streams: KafkaStreams, key: string): number | null {
  try {
    return streams.store({ storeName: 'limits', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get(key)
  } catch {
    return null
  }
}
