import { expect } from 'chai'
import {
  Headers,
  KeyValue,
  PunctuationType,
  Record,
  Serdes,
  Topology,
  logAndSkipOnInvalidTimestamp,
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
  type RecordMetadata
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '../src/topology-test-driver.js'

const S = Serdes.String()
const stringSource = { keyDeserializer: S, valueDeserializer: S }
const stringSink = { keySerializer: S, valueSerializer: S }

/** A processor that forwards what `fn` returns (or nothing). */
function mapping(
  fn: (r: Record<string, string>, ctx: ProcessorContext<string, string>) => Array<[Record<string, string>, string?]>
): () => Processor<string, string, string, string> {
  return () => {
    let ctx: ProcessorContext<string, string>
    return {
      init(c) {
        ctx = c
      },
      process(r) {
        for (const [out, child] of fn(r, ctx)) ctx.forward(out, child)
      }
    }
  }
}

describe('Processor API on the TopologyTestDriver', () => {
  it('forwards depth-first to children in the order they were connected', () => {
    const order: string[] = []
    const recorder = (name: string) =>
      mapping(r => {
        order.push(`${name}:${r.value}`)
        return [[r]]
      })
    const topology = new Topology()
      .addSource('source', 'input', stringSource)
      .addProcessor('A', recorder('A'), 'source')
      .addProcessor('B', recorder('B'), 'source')
      .addProcessor('C', recorder('C'), 'A')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('input', S, S).pipeInput('k', 'x', 1)
    expect(order).to.deep.equal(['A:x', 'C:x', 'B:x'])
    driver.close()
  })

  it('forwards to a named child only, and rejects an unknown child naming it', () => {
    const topology = new Topology()
      .addSource('source', 'input', stringSource)
      .addProcessor(
        'router',
        mapping(r => [[r, r.value === 'even' ? 'even-sink' : r.value === 'odd' ? 'odd-sink' : 'nowhere']]),
        'source'
      )
      .addSink('even-sink', 'even', stringSink, 'router')
      .addSink('odd-sink', 'odd', stringSink, 'router')
    const driver = new TopologyTestDriver(topology)
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('1', 'odd', 1)
    input.pipeInput('2', 'even', 2)
    expect(driver.createOutputTopic('odd', S, S).readKeyValuesToList()).to.deep.equal([KeyValue.pair('1', 'odd')])
    expect(driver.createOutputTopic('even', S, S).readKeyValuesToList()).to.deep.equal([KeyValue.pair('2', 'even')])
    let err: any
    try {
      input.pipeInput('3', 'other', 3)
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'UNKNOWN_CHILD')
    expect(err.message).to.contain('nowhere')
    driver.close()
  })

  it('output records carry the forwarded timestamp and headers; the context follows the forwarded record', () => {
    const seen: number[] = []
    const topology = new Topology()
      .addSource('source', 'input', stringSource)
      .addProcessor(
        'shift',
        mapping(r => [[r.withTimestamp(r.timestamp + 100).withHeaders(new Headers().add('h', 'v'))]]),
        'source'
      )
      .addProcessor(
        'observe',
        mapping((r, ctx) => {
          seen.push(ctx.currentStreamTimeMs())
          return [[r.withValue(`${r.value}!`)]]
        }),
        'shift'
      )
      .addSink('sink', 'output', stringSink, 'observe')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('input', S, S).pipeInput('k', 'v', 7)
    const out = driver.createOutputTopic('output', S, S).readRecord()
    expect(out.value).to.equal('v!')
    expect(out.timestamp).to.equal(107)
    expect(out.headers.lastHeader('h')?.value?.toString()).to.equal('v')
    expect(seen).to.deep.equal([7]) // stream time is the task's, not the forwarded record's
    driver.close()
  })

  it('recordMetadata gives topic, partition and offset; offsets count per topic from 0', () => {
    const metas: Array<RecordMetadata | undefined> = []
    const topology = new Topology().addSource('source', ['a', 'b'], stringSource).addProcessor(
      'p',
      mapping((_r, ctx) => {
        metas.push(ctx.recordMetadata())
        return []
      }),
      'source'
    )
    const driver = new TopologyTestDriver(topology)
    const a = driver.createInputTopic('a', S, S)
    const b = driver.createInputTopic('b', S, S)
    a.pipeInput('k', 'v', 1)
    a.pipeInput('k', 'v', 2)
    b.pipeInput('k', 'v', 3)
    expect(metas).to.deep.equal([
      { topic: 'a', partition: 0, offset: 0 },
      { topic: 'a', partition: 0, offset: 1 },
      { topic: 'b', partition: 0, offset: 0 }
    ])
    driver.close()
  })

  it('a store must be connected to the processor that uses it', () => {
    const topology = new Topology()
      .addSource('source', 'input', stringSource)
      .addProcessor(
        'owner',
        mapping((r, ctx) => {
          ctx.getStateStore('counts')
          return [[r]]
        }),
        'source'
      )
      .addProcessor(
        'intruder',
        mapping((_r, ctx) => {
          ctx.getStateStore('counts')
          return []
        }),
        'owner'
      )
      .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), S, Serdes.Long()), 'owner')
    const driver = new TopologyTestDriver(topology)
    let err: any
    try {
      driver.createInputTopic('input', S, S).pipeInput('k', 'v', 1)
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'STORE_NOT_CONNECTED')
    expect(err.message).to.contain('intruder').and.to.contain('counts')
    driver.close()
  })

  it('schedule() and forward() outside of processing are rejected', () => {
    let saved: ProcessorContext<string, string> | undefined
    const topology = new Topology().addSource('source', 'input', stringSource).addProcessor(
      'p',
      () => ({
        init(c: ProcessorContext<string, string>) {
          saved = c
        },
        process() {}
      }),
      'source'
    )
    const driver = new TopologyTestDriver(topology)
    expect(() => saved!.schedule(10, PunctuationType.STREAM_TIME, () => {}))
      .to.throw()
      .with.property('code', 'ILLEGAL_STATE')
    expect(() => saved!.forward(new Record('k', 'v', 0)))
      .to.throw()
      .with.property('code', 'ILLEGAL_STATE')
    driver.close()
  })

  it('an exception thrown by a processor is wrapped with the node, task and record position', () => {
    const boom = new Error('boom')
    const topology = new Topology().addSource('source', 'input', stringSource).addProcessor(
      'failing',
      mapping(() => {
        throw boom
      }),
      'source'
    )
    const driver = new TopologyTestDriver(topology)
    let err: any
    try {
      driver.createInputTopic('input', S, S).pipeInput('k', 'v', 1)
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'PROCESSING')
    expect(err.cause).to.equal(boom)
    expect(err.taskId).to.equal('0_0')
    expect(err.message).to.contain('failing').and.to.contain('topic=input').and.to.contain('offset=0')
    driver.close()
  })

  it('processingExceptionHandler: logAndContinue drops the failing record; a handler function sees the node and position', () => {
    const topology = (): Topology =>
      new Topology()
        .addSource('source', 'input', stringSource)
        .addProcessor(
          'picky',
          mapping(r => {
            if (r.value === 'bad') throw new Error('cannot take it')
            return [[r]]
          }),
          'source'
        )
        .addSink('sink', 'output', stringSink, 'picky')
    const continuing = new TopologyTestDriver(topology(), { processingExceptionHandler: 'logAndContinue' })
    const input = continuing.createInputTopic('input', S, S)
    input.pipeInput('1', 'good', 1)
    input.pipeInput('2', 'bad', 2)
    input.pipeInput('3', 'fine', 3)
    expect(continuing.createOutputTopic('output', S, S).readValuesToList()).to.deep.equal(['good', 'fine'])
    continuing.close()
    const seen: unknown[] = []
    const custom = new TopologyTestDriver(topology(), {
      processingExceptionHandler: (ctx, err) => {
        seen.push([ctx.processorNodeId, ctx.topic, ctx.offset, err.message])
        return 'FAIL'
      }
    })
    let err: any
    try {
      custom.createInputTopic('input', S, S).pipeInput('2', 'bad', 2)
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'PROCESSING')
    expect(seen).to.deep.equal([['picky', 'input', 0, 'cannot take it']])
    custom.close()
  })

  it('processingExceptionHandler: a StreamsError thrown from user code (store.put(null, v)) goes to the handler like any other error, once', () => {
    const topology = (): Topology =>
      new Topology()
        .addSource('source', 'input', stringSource)
        .addProcessor(
          'forward',
          mapping(r => [[r]]),
          'source'
        )
        .addProcessor(
          'store-it',
          (): Processor<string, string, string, string> => {
            let ctx: ProcessorContext<string, string>
            let store: KeyValueStore<string | null, string>
            return {
              init(c) {
                ctx = c
                store = c.getStateStore('KV')
              },
              process(r) {
                store.put(r.value === 'bad' ? null : r.key, r.value)
                ctx.forward(r)
              }
            }
          },
          'forward'
        )
        .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('KV'), S, S), 'store-it')
        .addSink('sink', 'output', stringSink, 'store-it')
    const continuing = new TopologyTestDriver(topology(), { processingExceptionHandler: 'logAndContinue' })
    const input = continuing.createInputTopic('input', S, S)
    input.pipeInput('1', 'good', 1)
    input.pipeInput('2', 'bad', 2)
    input.pipeInput('3', 'fine', 3)
    expect(continuing.createOutputTopic('output', S, S).readValuesToList()).to.deep.equal(['good', 'fine'])
    continuing.close()
    const seen: unknown[] = []
    const custom = new TopologyTestDriver(topology(), {
      processingExceptionHandler: (ctx, err) => {
        seen.push([ctx.processorNodeId, ctx.offset, (err as { code?: string }).code])
        return 'FAIL'
      }
    })
    let err: any
    try {
      custom.createInputTopic('input', S, S).pipeInput('2', 'bad', 2)
    } catch (e) {
      err = e
    }
    // Asked once, by the node that threw (not again by the nodes it bubbles up through); the code is kept.
    expect(seen).to.deep.equal([['store-it', 0, 'ILLEGAL_ARGUMENT']])
    expect(err).to.have.property('code', 'ILLEGAL_ARGUMENT')
    custom.close()
  })

  it('productionExceptionHandler: continue skips a record its sink cannot serialize; fail (default) stops', () => {
    const picky = {
      serialize: (_t: string, v: string | null) => {
        if (v === 'bad') throw new Error('unserializable')
        return v === null ? null : Buffer.from(v)
      }
    }
    const topology = new Topology()
      .addSource('source', 'input', stringSource)
      .addSink('sink', 'output', { keySerializer: S, valueSerializer: picky }, 'source')
    const skipping = new TopologyTestDriver(topology, { productionExceptionHandler: 'continue' })
    const input = skipping.createInputTopic('input', S, S)
    input.pipeValueList(['a', 'bad', 'b'])
    expect(skipping.createOutputTopic('output', S, S).readValuesToList()).to.deep.equal(['a', 'b'])
    skipping.close()
    const failing = new TopologyTestDriver(topology)
    expect(() => failing.createInputTopic('input', S, S).pipeInput('bad'))
      .to.throw()
      .with.property('code', 'SERIALIZATION')
    failing.close()
  })

  it('a topology that writes to a topic it reads processes that record in the same pipeInput call', () => {
    const topology = new Topology()
      .addSource('source', 'input', stringSource)
      .addProcessor(
        'rekey',
        mapping(r => [[r.withKey(r.value)]]),
        'source'
      )
      .addSink('to-repartition', 'rekeyed', stringSink, 'rekey')
      .addSource('from-repartition', 'rekeyed', stringSource)
      .addProcessor(
        'upper',
        mapping(r => [[r.withValue(r.value.toUpperCase())]]),
        'from-repartition'
      )
      .addSink('sink', 'output', stringSink, 'upper')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('input', S, S).pipeInput('k', 'hello', 5)
    expect(
      driver
        .createOutputTopic('output', S, S)
        .readRecordsToList()
        .map(r => [r.key, r.value, r.timestamp])
    ).to.deep.equal([['hello', 'HELLO', 5]])
    expect([...driver.producedTopicNames()].sort()).to.deep.equal(['output', 'rekeyed'])
    driver.close()
  })

  it('a dynamic sink chooses the topic per record, and a partitioner sees the partition count', () => {
    const partitionerCalls: Array<[string, number]> = []
    const topology = new Topology().addSource('source', 'input', stringSource).addSink(
      'sink',
      (key: string) => `out-${key}`,
      {
        keySerializer: S,
        valueSerializer: S,
        partitioner: (topic: string, _k: string, _v: string, n: number) => {
          partitionerCalls.push([topic, n])
          return 0
        }
      },
      'source'
    )
    const driver = new TopologyTestDriver(topology)
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('x', '1', 1)
    input.pipeInput('y', '2', 2)
    expect(driver.createOutputTopic('out-x', S, S).readValuesToList()).to.deep.equal(['1'])
    expect(driver.createOutputTopic('out-y', S, S).readValuesToList()).to.deep.equal(['2'])
    expect(partitionerCalls).to.deep.equal([
      ['out-x', 1],
      ['out-y', 1]
    ])
    driver.close()
  })

  it('a partitioner that multicasts or drops (KIP-837): every topic of the driver has one partition', () => {
    const sinkTo = (
      topic: string,
      partitioner: (t: string, k: string, v: string, n: number) => number | number[] | Set<number> | undefined
    ) =>
      new Topology()
        .addSource('source', 'input', stringSource)
        .addSink('sink', topic, { keySerializer: S, valueSerializer: S, partitioner }, 'source')
    const run = (partitioner: Parameters<typeof sinkTo>[1]): { values: Array<string | null>; dropped: number } => {
      const driver = new TopologyTestDriver(sinkTo('output', partitioner))
      try {
        driver.createInputTopic('input', S, S).pipeInput('k', 'v', 1)
        const dropped = driver
          .metrics()
          .filter(m => m.name === 'dropped-records-total' && m.group === 'stream-task-metrics')
          .reduce((n, m) => n + Number(m.value), 0)
        return { values: driver.createOutputTopic('output', S, S).readValuesToList(), dropped }
      } finally {
        driver.close()
      }
    }
    expect(run(() => new Set([0]))).to.deep.equal({ values: ['v'], dropped: 0 })
    expect(run(() => [0, 0])).to.deep.equal({ values: ['v'], dropped: 0 })
    expect(run(() => undefined)).to.deep.equal({ values: ['v'], dropped: 0 })
    expect(run(() => new Set())).to.deep.equal({ values: [], dropped: 1 })
    expect(run(() => [])).to.deep.equal({ values: [], dropped: 1 })
    const driver = new TopologyTestDriver(sinkTo('output', (_t, _k, _v, n) => Array.from({ length: n + 1 }, (_, i) => i)))
    try {
      let error: unknown
      try {
        driver.createInputTopic('input', S, S).pipeInput('k', 'v', 1)
      } catch (err) {
        error = err
      }
      expect(error).to.have.property('code', 'ILLEGAL_ARGUMENT')
      expect((error as Error).message)
        .to.include('sink sink')
        .and.include('partition 1')
        .and.include('topic output')
      expect(driver.createOutputTopic('output', S, S).readValuesToList()).to.deep.equal([])
    } finally {
      driver.close()
    }
  })

  it('uses the default serdes from the config, and names the missing one', () => {
    const topology = new Topology().addSource('source', 'input').addSink('sink', 'output', 'source')
    const driver = new TopologyTestDriver(topology, { defaultKeySerde: Serdes.String(), defaultValueSerde: Serdes.Integer() })
    driver.createInputTopic('input', S, Serdes.Integer()).pipeInput('k', 42, 1)
    expect(driver.createOutputTopic('output', S, Serdes.Integer()).readKeyValue()).to.deep.equal(KeyValue.pair('k', 42))
    driver.close()
    let err: any
    try {
      new TopologyTestDriver(topology, { defaultKeySerde: Serdes.String() })
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'INVALID_CONFIG')
    expect(err).to.have.property('key', 'defaultValueSerde')
  })

  it('a negative timestamp fails by default and is skipped with logAndSkipOnInvalidTimestamp', () => {
    const build = (withSkip: boolean): Topology =>
      new Topology()
        .addSource('source', 'input', { ...stringSource, ...(withSkip ? { timestampExtractor: logAndSkipOnInvalidTimestamp } : {}) })
        .addSink('sink', 'output', stringSink, 'source')
    const failing = new TopologyTestDriver(build(false))
    expect(() => failing.createInputTopic('input', S, S).pipeInput('k', 'v', -1))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    failing.close()
    const skipping = new TopologyTestDriver(build(true))
    const input = skipping.createInputTopic('input', S, S)
    input.pipeInput('k', 'dropped', -1)
    input.pipeInput('k', 'kept', 1)
    expect(skipping.createOutputTopic('output', S, S).readValuesToList()).to.deep.equal(['kept'])
    skipping.close()
  })

  it('a pattern source reads every topic whose whole name matches', () => {
    const topology = new Topology().addSource('source', /topic-\d/, stringSource).addSink('sink', 'output', stringSink, 'source')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('topic-1', S, S).pipeInput('k', 'one', 1)
    driver.createInputTopic('topic-2', S, S).pipeInput('k', 'two', 2)
    expect(() => driver.createInputTopic('topic-12', S, S))
      .to.throw()
      .with.property('code', 'UNKNOWN_TOPIC')
    expect(driver.createOutputTopic('output', S, S).readValuesToList()).to.deep.equal(['one', 'two'])
    driver.close()
  })

  it('closes processors once, and the driver close is idempotent', () => {
    let closed = 0
    const topology = new Topology().addSource('source', 'input', stringSource).addProcessor(
      'p',
      () => ({
        process() {},
        close() {
          closed++
        }
      }),
      'source'
    )
    const driver = new TopologyTestDriver(topology)
    driver.close()
    driver.close()
    expect(closed).to.equal(1)
    expect(() => driver.createInputTopic('input', S, S).pipeInput('k', 'v', 1))
      .to.throw()
      .with.property('code', 'ILLEGAL_STATE')
  })

  it('each task gets its own processor instances from the supplier', () => {
    const used = new Set<object>()
    const topology = new Topology().addSource('source', 'input', stringSource).addProcessor(
      'p',
      () => {
        const p = {
          process() {
            used.add(p)
          }
        }
        return p
      },
      'source'
    )
    for (let i = 0; i < 2; i++) {
      const driver = new TopologyTestDriver(topology)
      driver.createInputTopic('input', S, S).pipeInput('k', 'v', 1)
      driver.close()
    }
    expect(used.size).to.equal(2)
  })
})
