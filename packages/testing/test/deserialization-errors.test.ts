/**
 * The deserialization exception handler on the TopologyTestDriver, as on the runtime: a record
 * of a stream topic or of a global topic that cannot be deserialized fails with a typed error
 * naming topic, partition and offset ('logAndFail', the default), or is skipped and counted in
 * dropped-records-total of its task ('logAndContinue', or a handler returning CONTINUE, which
 * sees the record's position and task).
 */
import { expect } from 'chai'
import {
  SerializationError,
  Serdes,
  StreamsError,
  Topology,
  type ErrorHandlerContext,
  type KeyValueStore,
  type ProcessorContext,
  type Record,
  type StreamsConfig
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '../src/topology-test-driver.js'

const S = Serdes.String()
const I = Serdes.Integer()
const B = Serdes.ByteArray()
const int = (topic: string, n: number): Buffer => I.serializer().serialize(topic, n)!

/** Stream topic `numbers` (Integer values) -> `out`; global topic `limits` (Integer values) -> store `limits`. */
function topology(): Topology {
  return new Topology()
    .addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('limits'), S, I).withLoggingDisabled(),
      'limits-source',
      { keyDeserializer: S, valueDeserializer: I },
      'limits',
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
    .addSource('source', 'numbers', { keyDeserializer: S, valueDeserializer: I })
    .addSink('sink', 'out', { keySerializer: S, valueSerializer: I }, 'source')
}

const dropped = (driver: TopologyTestDriver, taskId: string): number | undefined =>
  driver.metrics().find(m => m.name === 'dropped-records-total' && m.tags['task-id'] === taskId)?.value

function pipeBoth(config: StreamsConfig): TopologyTestDriver {
  const driver = new TopologyTestDriver(topology(), config)
  const numbers = driver.createInputTopic('numbers', S, B)
  const limits = driver.createInputTopic('limits', S, B)
  numbers.pipeInput('a', int('numbers', 1), 1)
  numbers.pipeInput('bad', Buffer.from('xyz'), 2) // 3 bytes: not an Integer
  numbers.pipeInput('b', int('numbers', 2), 3)
  limits.pipeInput('x', int('limits', 10), 1)
  limits.pipeInput('bad', Buffer.from('xyz'), 2)
  limits.pipeInput('y', int('limits', 20), 3)
  return driver
}

describe('TopologyTestDriver: deserialization exception handler', () => {
  it('logAndContinue skips and counts a bad record of a stream topic and of a global topic', () => {
    const driver = pipeBoth({ deserializationExceptionHandler: 'logAndContinue' })
    expect(driver.createOutputTopic('out', S, I).readKeyValuesToList()).to.deep.equal([
      { key: 'a', value: 1 },
      { key: 'b', value: 2 }
    ])
    const limits = driver.getKeyValueStore<string, number>('limits')!
    expect([limits.get('x'), limits.get('bad'), limits.get('y')]).to.deep.equal([10, null, 20])
    expect(dropped(driver, '0_0')).to.equal(1)
    expect(dropped(driver, '-1_-1')).to.equal(1)
    driver.close()
  })

  it('logAndFail (the default) fails with a SerializationError naming topic, partition and offset', () => {
    for (const topic of ['numbers', 'limits']) {
      const driver = new TopologyTestDriver(topology())
      const input = driver.createInputTopic(topic, S, B)
      input.pipeInput('ok', int(topic, 1), 1)
      const err = (() => {
        try {
          input.pipeInput('bad', Buffer.from('xyz'), 2)
          return undefined
        } catch (e) {
          return e
        }
      })()
      expect(err, topic).to.be.instanceOf(SerializationError)
      expect((err as Error).message).to.contain(`topic ${topic}, partition 0, offset 1`)
      driver.close()
    }
  })

  it('a handler that throws fails pipeInput with a StreamsError wrapping what it threw, as the runtime does', () => {
    for (const topic of ['numbers', 'limits']) {
      const blewUp = new Error('handler blew up')
      const driver = new TopologyTestDriver(topology(), {
        deserializationExceptionHandler: () => {
          throw blewUp
        }
      })
      const input = driver.createInputTopic(topic, S, B)
      let err: StreamsError | undefined
      try {
        input.pipeInput('bad', Buffer.from('xyz'), 2)
      } catch (e) {
        err = e as StreamsError
      }
      expect(err, topic).to.be.instanceOf(StreamsError)
      expect([err!.code, err!.cause]).to.deep.equal(['PROCESSING', blewUp])
      driver.close()
    }
  })

  it('a handler function decides per record and sees its position and task', () => {
    const seen: ErrorHandlerContext[] = []
    const driver = pipeBoth({
      deserializationExceptionHandler: context => {
        seen.push(context)
        return 'CONTINUE'
      }
    })
    expect(seen.map(c => [c.topic, c.partition, c.offset, c.taskId])).to.deep.equal([
      ['numbers', 0, 1, '0_0'],
      ['limits', 0, 1, '-1_-1']
    ])
    expect(dropped(driver, '0_0')).to.equal(1)
    driver.close()
  })
})
