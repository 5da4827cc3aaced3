/**
 * Dead-letter queues (KIP-1034) on the TopologyTestDriver: the handler contexts carry the source
 * record (position, headers, raw key and value bytes, the failed node, the task); the built-in
 * handlers write Kafka's default dead-letter record when `errorsDeadLetterQueueTopicName` is set;
 * handler functions may answer with their own records. Ports of Kafka's
 * DeadLetterQueueIntegrationTest (shouldSendToDlqAndContinueFromProcessorAPI /
 * FromDeserializationError) on the driver, plus the punctuator, production and global-store cases.
 */
import { expect } from 'chai'
import {
  ConfigError,
  ErrorHandlerResponse,
  HEADER_ERRORS_EXCEPTION_MESSAGE_NAME,
  HEADER_ERRORS_EXCEPTION_NAME,
  HEADER_ERRORS_OFFSET_NAME,
  HEADER_ERRORS_PARTITION_NAME,
  HEADER_ERRORS_STACKTRACE_NAME,
  HEADER_ERRORS_TOPIC_NAME,
  Headers,
  PunctuationType,
  Serdes,
  StreamsError,
  Topology,
  buildDeadLetterQueueRecord,
  resolveStreamsConfig,
  type ErrorHandlerContext,
  type ProcessorContext,
  type ProductionErrorRecord,
  type Record,
  type Serde,
  type StreamsConfig
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TestRecord, TopologyTestDriver } from '@kstreams/testing'

const INPUT = 'inputTopic'
const OUTPUT = 'outputTopic'
const DLQ = 'dlqTopic'

/** Forwards every record; throws RuntimeException-like "KABOOM" on the value KABOOM (Kafka's test processor). */
function kaboomTopology(valueSerde: Serde<any> = Serdes.String()): Topology {
  return new Topology()
    .addSource('source', INPUT, { keyDeserializer: Serdes.String(), valueDeserializer: valueSerde.deserializer() })
    .addProcessor(
      'kaboom',
      () => {
        let ctx: ProcessorContext<string, string>
        return {
          init(c: ProcessorContext<string, string>) {
            ctx = c
          },
          process(r: Record<string, unknown>) {
            if (r.value === 'KABOOM') throw new Error('KABOOM')
            ctx.forward(r.withValue(String(r.value)))
          }
        }
      },
      'source'
    )
    .addSink('sink', OUTPUT, { keySerializer: Serdes.String(), valueSerializer: Serdes.String() }, 'kaboom')
}

/** A processor whose stream-time punctuator (every 10 ms) throws. */
function tickerTopology(): Topology {
  return new Topology().addSource('source', INPUT, { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() }).addProcessor(
    'ticker',
    () => ({
      init(c: ProcessorContext<string, string>) {
        c.schedule(10, PunctuationType.STREAM_TIME, () => {
          throw new Error('tick failed')
        })
      },
      process() {}
    }),
    'source'
  )
}

const text = (b: Buffer | null | undefined): string | null => (b === null || b === undefined ? null : b.toString('utf8'))
const header = (h: Headers, key: string): string | null => text(h.lastHeader(key)?.value)

function driverFor(topology: Topology, config: StreamsConfig): TopologyTestDriver {
  return new TopologyTestDriver(topology, { applicationId: 'dlq-test', ...config })
}

describe('Dead letter queues (KIP-1034) on the TopologyTestDriver', () => {
  let driver: TopologyTestDriver | undefined
  afterEach(() => {
    driver?.close()
    driver = undefined
  })

  it('a processing error with logAndContinue and a dead-letter topic: the raw source record goes to it with the source headers and the __streams.errors.* headers; the rest is processed', () => {
    driver = driverFor(kaboomTopology(), { processingExceptionHandler: 'logAndContinue', errorsDeadLetterQueueTopicName: DLQ })
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.String())
    input.pipeInput('key', 'value-1', 10)
    input.pipeInput(new TestRecord('key', 'KABOOM', 20, new Headers({ 'trace-id': 't-2' })))
    input.pipeInput('key', 'value-2', 30)

    expect(driver.createOutputTopic(OUTPUT, Serdes.String(), Serdes.String()).readValuesToList()).to.deep.equal(['value-1', 'value-2'])
    const dlq = driver.createOutputTopic(DLQ, Serdes.ByteArray(), Serdes.ByteArray()).readRecordsToList()
    expect(dlq).to.have.length(1)
    const r = dlq[0]!
    expect(text(r.key as Buffer)).to.equal('key')
    expect(text(r.value as Buffer)).to.equal('KABOOM')
    expect(r.timestamp).to.equal(20)
    expect([...r.headers].map(h => h.key)).to.deep.equal([
      'trace-id',
      HEADER_ERRORS_EXCEPTION_NAME,
      HEADER_ERRORS_EXCEPTION_MESSAGE_NAME,
      HEADER_ERRORS_STACKTRACE_NAME,
      HEADER_ERRORS_TOPIC_NAME,
      HEADER_ERRORS_PARTITION_NAME,
      HEADER_ERRORS_OFFSET_NAME
    ])
    expect(header(r.headers, 'trace-id')).to.equal('t-2')
    expect(header(r.headers, HEADER_ERRORS_EXCEPTION_NAME)).to.equal('Error')
    expect(header(r.headers, HEADER_ERRORS_EXCEPTION_MESSAGE_NAME)).to.equal('KABOOM')
    expect(header(r.headers, HEADER_ERRORS_STACKTRACE_NAME)).to.contain('Error: KABOOM').and.to.contain('dead-letter-queue.test.ts')
    expect(header(r.headers, HEADER_ERRORS_TOPIC_NAME)).to.equal(INPUT)
    expect(header(r.headers, HEADER_ERRORS_PARTITION_NAME)).to.equal('0')
    expect(header(r.headers, HEADER_ERRORS_OFFSET_NAME)).to.equal('1')
  })

  it('a record that cannot be deserialized with logAndContinue and a dead-letter topic: its raw bytes go to it; the good records are processed', () => {
    driver = driverFor(kaboomTopology(Serdes.Long()), {
      deserializationExceptionHandler: 'logAndContinue',
      errorsDeadLetterQueueTopicName: DLQ
    })
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.ByteArray())
    const long = (n: bigint): Buffer => {
      const b = Buffer.alloc(8)
      b.writeBigInt64BE(n)
      return b
    }
    input.pipeInput('key', long(1n))
    input.pipeInput('key', Buffer.from('value'))
    input.pipeInput('key', long(3n))

    expect(driver.createOutputTopic(OUTPUT, Serdes.String(), Serdes.String()).readValuesToList()).to.deep.equal(['1', '3'])
    const dlq = driver.createOutputTopic(DLQ, Serdes.ByteArray(), Serdes.ByteArray()).readRecordsToList()
    expect(dlq).to.have.length(1)
    expect(text(dlq[0]!.key as Buffer)).to.equal('key')
    expect(text(dlq[0]!.value as Buffer)).to.equal('value')
    expect(header(dlq[0]!.headers, HEADER_ERRORS_EXCEPTION_NAME)).to.equal('SerializationError')
    expect(header(dlq[0]!.headers, HEADER_ERRORS_TOPIC_NAME)).to.equal(INPUT)
    expect(header(dlq[0]!.headers, HEADER_ERRORS_OFFSET_NAME)).to.equal('1')
    expect(driver.metrics().find(m => m.name === 'dropped-records-total')?.value).to.equal(1)
  })

  it('without a dead-letter topic the built-in handlers write no dead-letter record', () => {
    driver = driverFor(kaboomTopology(), { processingExceptionHandler: 'logAndContinue' })
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.String())
    input.pipeInput('key', 'KABOOM')
    input.pipeInput('key', 'value-2')
    expect(driver.createOutputTopic(OUTPUT, Serdes.String(), Serdes.String()).readValuesToList()).to.deep.equal(['value-2'])
    expect(driver.producedTopicNames()).to.not.include(DLQ)
  })

  it('a processing handler function sees the source record (headers, raw bytes, node, task) and the record, and writes its own dead-letter record', () => {
    const seen: Array<{ context: ErrorHandlerContext; record: Record<unknown, unknown> | undefined }> = []
    driver = driverFor(kaboomTopology(), {
      processingExceptionHandler: (context, error, record) => {
        seen.push({ context, record })
        const dead = buildDeadLetterQueueRecord('my-dlq', context.sourceRawKey, context.sourceRawValue, context, error)
        return ErrorHandlerResponse.resume([dead, { topic: 'alerts', key: null, value: Buffer.from(`node ${context.processorNodeId}`) }])
      }
    })
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.String())
    input.pipeInput(new TestRecord('k', 'KABOOM', 5, new Headers({ h: 'v' })))

    expect(seen).to.have.length(1)
    const { context, record } = seen[0]!
    expect({
      ...context,
      headers: [...context.headers].map(h => h.key),
      sourceRawKey: text(context.sourceRawKey),
      sourceRawValue: text(context.sourceRawValue)
    }).to.deep.equal({
      topic: INPUT,
      partition: 0,
      offset: 0,
      timestamp: 5,
      taskId: '0_0',
      headers: ['h'],
      processorNodeId: 'kaboom',
      sourceRawKey: 'k',
      sourceRawValue: 'KABOOM'
    })
    expect(record?.value).to.equal('KABOOM')
    const mine = driver.createOutputTopic('my-dlq', Serdes.String(), Serdes.String()).readKeyValuesToList()
    expect(mine.map(kv => [kv.key, kv.value])).to.deep.equal([['k', 'KABOOM']])
    expect(driver.createOutputTopic('alerts', Serdes.String(), Serdes.String()).readValuesToList()).to.deep.equal(['node kaboom'])
  })

  it('the raw bytes are those of the source record even after a processor changed key and value upstream of the failure', () => {
    let raw: [string | null, string | null] | undefined
    const topology = new Topology()
      .addSource('source', INPUT, { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
      .addProcessor(
        'upper',
        () => {
          let ctx: ProcessorContext<string, string>
          return {
            init(c: ProcessorContext<string, string>) {
              ctx = c
            },
            process(r: Record<string, string>) {
              ctx.forward(
                r
                  .withKey(r.key.toUpperCase())
                  .withValue(r.value.toUpperCase())
                  .withTimestamp(r.timestamp + 1)
              )
            }
          }
        },
        'source'
      )
      .addProcessor(
        'fail',
        () => ({
          process: () => {
            throw new Error('no')
          }
        }),
        'upper'
      )
    driver = driverFor(topology, {
      processingExceptionHandler: context => {
        raw = [text(context.sourceRawKey), text(context.sourceRawValue)]
        expect(context.processorNodeId).to.equal('fail')
        expect(context.timestamp).to.equal(8)
        return 'CONTINUE'
      }
    })
    driver.createInputTopic(INPUT, Serdes.String(), Serdes.String()).pipeInput('a', 'b', 7)
    expect(raw).to.deep.equal(['a', 'b'])
  })

  it('a punctuator that throws goes to the processing handler (as Kafka): no topic, no raw bytes, the punctuating node; CONTINUE keeps the task going', () => {
    const contexts: ErrorHandlerContext[] = []
    const records: unknown[] = []
    const topology = tickerTopology()
    driver = driverFor(topology, {
      errorsDeadLetterQueueTopicName: DLQ,
      processingExceptionHandler: (context, error, record) => {
        contexts.push(context)
        records.push(record)
        return ErrorHandlerResponse.resume([buildDeadLetterQueueRecord(DLQ, context.sourceRawKey, context.sourceRawValue, context, error)])
      }
    })
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.String())
    input.pipeInput('k', 'v', 0)
    input.pipeInput('k', 'v', 10)
    expect(contexts.map(c => [c.topic, c.partition, c.offset, c.processorNodeId, c.sourceRawKey, c.sourceRawValue])).to.deep.equal([
      ['', -1, -1, 'ticker', null, null],
      ['', -1, -1, 'ticker', null, null]
    ])
    expect(records).to.deep.equal([undefined, undefined])
    const dlq = driver.createOutputTopic(DLQ, Serdes.ByteArray(), Serdes.ByteArray()).readRecordsToList()
    expect(
      dlq.map(r => [r.key, r.value, r.headers.lastHeader(HEADER_ERRORS_TOPIC_NAME)?.value, header(r.headers, HEADER_ERRORS_OFFSET_NAME)])
    ).to.deep.equal([
      [null, null, null, '-1'],
      [null, null, null, '-1']
    ])
  })

  it('a punctuator that throws with logAndFail (the default) still fails the task', () => {
    const topology = tickerTopology()
    driver = driverFor(topology, {})
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.String())
    expect(() => input.pipeInput('k', 'v', 0))
      .to.throw(StreamsError)
      .that.satisfies((e: StreamsError) => e.code === 'PROCESSING' && e.message.includes('punctuating processor ticker'))
  })

  it('a record its sink cannot serialize: the production handler sees the source record and the output record with its KEY/VALUE origin; continue with a dead-letter topic writes the source bytes', () => {
    const asked: Array<{ context: ErrorHandlerContext; record: ProductionErrorRecord }> = []
    const failing: Serde<string> = {
      serializer: () => ({
        serialize: (_t: string, v: string | null) => {
          if (v === 'bad') throw new Error('cannot serialize bad')
          return v === null ? null : Buffer.from(v)
        }
      }),
      deserializer: () => Serdes.String().deserializer()
    } as Serde<string>
    const topology = (): Topology =>
      new Topology()
        .addSource('source', INPUT, { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
        .addSink('sink', OUTPUT, { keySerializer: Serdes.String(), valueSerializer: failing.serializer() }, 'source')

    driver = driverFor(topology(), { productionExceptionHandler: 'continue', errorsDeadLetterQueueTopicName: DLQ })
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.String())
    input.pipeInput('k1', 'good')
    input.pipeInput('k2', 'bad')
    expect(driver.createOutputTopic(OUTPUT, Serdes.String(), Serdes.String()).readValuesToList()).to.deep.equal(['good'])
    const dlq = driver.createOutputTopic(DLQ, Serdes.String(), Serdes.String()).readRecordsToList()
    expect(dlq.map(r => [r.key, r.value, header(r.headers, HEADER_ERRORS_EXCEPTION_MESSAGE_NAME)])).to.deep.equal([
      ['k2', 'bad', 'cannot serialize bad']
    ])
    driver.close()

    driver = driverFor(topology(), {
      productionExceptionHandler: (context, _error, record) => {
        asked.push({ context, record })
        return 'CONTINUE'
      }
    })
    driver.createInputTopic(INPUT, Serdes.String(), Serdes.String()).pipeInput('k2', 'bad', 3)
    expect(asked).to.have.length(1)
    expect([asked[0]!.context.processorNodeId, asked[0]!.context.topic, text(asked[0]!.context.sourceRawValue)]).to.deep.equal([
      'sink',
      INPUT,
      'bad'
    ])
    const { topic, partition, key, value, timestamp, serializationExceptionOrigin } = asked[0]!.record
    expect({ topic, partition, key, value, timestamp, serializationExceptionOrigin }).to.deep.equal({
      topic: OUTPUT,
      partition: undefined,
      key: 'k2',
      value: 'bad',
      timestamp: 3,
      serializationExceptionOrigin: 'VALUE'
    })
  })

  it('a handler answer that is neither CONTINUE, FAIL nor an ErrorHandlerResponse fails with ILLEGAL_ARGUMENT naming the handler', () => {
    driver = driverFor(kaboomTopology(), { processingExceptionHandler: () => 'RETRY' as 'FAIL' })
    const input = driver.createInputTopic(INPUT, Serdes.String(), Serdes.String())
    try {
      input.pipeInput('key', 'KABOOM')
      expect.fail('expected a failure')
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause
      const invalid = [err, cause].find(e => e instanceof StreamsError && e.code === 'ILLEGAL_ARGUMENT') as StreamsError | undefined
      expect(invalid?.message).to.contain('Invalid processingExceptionHandler response')
    }
  })

  it('global-store updates write no dead-letter records, as Kafka documents for errors.dead.letter.queue.topic.name', () => {
    const topology = new Topology().addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('limits'), Serdes.String(), Serdes.Long()).withLoggingDisabled(),
      'global-source',
      { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.Long() },
      'limits',
      'global-proc',
      () => ({ process() {} })
    )
    driver = driverFor(topology, { deserializationExceptionHandler: 'logAndContinue', errorsDeadLetterQueueTopicName: DLQ })
    driver.createInputTopic('limits', Serdes.String(), Serdes.String()).pipeInput('k', 'not a long')
    expect(
      driver
        .metrics()
        .filter(m => m.name === 'dropped-records-total')
        .map(m => m.value),
      'the record was skipped'
    ).to.include(1)
    expect(driver.producedTopicNames()).to.not.include(DLQ)
  })

  it('errorsDeadLetterQueueTopicName must be a valid topic name', () => {
    expect(resolveStreamsConfig({ errorsDeadLetterQueueTopicName: 'app-dlq' }).errorsDeadLetterQueueTopicName).to.equal('app-dlq')
    expect(resolveStreamsConfig({}).errorsDeadLetterQueueTopicName).to.equal(undefined)
    for (const bad of ['', 'has space', '..', 42]) {
      expect(() => resolveStreamsConfig({ errorsDeadLetterQueueTopicName: bad as string }))
        .to.throw(ConfigError)
        .with.property('key', 'errorsDeadLetterQueueTopicName')
    }
  })

  it('buildDeadLetterQueueRecord: Kafka ExceptionHandlerUtils layout; a missing topic name is a TypeError', () => {
    const context: ErrorHandlerContext = {
      topic: 'in',
      partition: 2,
      offset: 41,
      timestamp: 99,
      taskId: '0_2',
      headers: new Headers({ a: '1' }),
      processorNodeId: 'p',
      sourceRawKey: Buffer.from('k'),
      sourceRawValue: null
    }
    class BadInput extends Error {}
    const r = buildDeadLetterQueueRecord('dlq', context.sourceRawKey, context.sourceRawValue, context, new BadInput('bad input'))
    expect({ topic: r.topic, key: text(r.key), value: r.value, timestamp: r.timestamp, partition: r.partition }).to.deep.equal({
      topic: 'dlq',
      key: 'k',
      value: null,
      timestamp: 99,
      partition: undefined
    })
    expect([...r.headers!].map(h => [h.key, h.key === HEADER_ERRORS_STACKTRACE_NAME ? 'stack' : text(h.value)])).to.deep.equal([
      ['a', '1'],
      [HEADER_ERRORS_EXCEPTION_NAME, 'BadInput'],
      [HEADER_ERRORS_EXCEPTION_MESSAGE_NAME, 'bad input'],
      [HEADER_ERRORS_STACKTRACE_NAME, 'stack'],
      [HEADER_ERRORS_TOPIC_NAME, 'in'],
      [HEADER_ERRORS_PARTITION_NAME, '2'],
      [HEADER_ERRORS_OFFSET_NAME, '41']
    ])
    expect(context.headers.size, 'the context headers are copied, not changed').to.equal(1)
    expect(() => buildDeadLetterQueueRecord('', null, null, context, new Error('x'))).to.throw(TypeError, 'errorsDeadLetterQueueTopicName')
  })
})
