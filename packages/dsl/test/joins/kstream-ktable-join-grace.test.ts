/**
 * Stream-table joins with a grace period (KIP-923, Joined.withGracePeriod): ports of the grace
 * cases of Kafka's KStreamKTableJoinTest (inputs and expected outputs), plus the buffer's store
 * and changelog. Stream records wait in a time-ordered buffer until stream time passes them by
 * the grace period, then join in timestamp order, each as of its own timestamp, against a
 * versioned table; a record already that late joins at once; a table that is not versioned, or
 * whose history retention is shorter than the grace period, is refused.
 */
import { expect } from 'chai'
import { Headers, Serdes } from '@kstreams/core'
import type { Deserializer, Serde, StreamsError } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { type TestInputTopic, TestRecord, TopologyTestDriver } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import { Joined } from '../../src/joined.js'
import { Materialized } from '../../src/materialized.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { capture, type KVT } from '../helpers.js'

const I = Serdes.Integer()
const S = Serdes.String()
const KEYS = [0, 1, 2, 3]
/** Kafka's MockValueJoiner.TOSTRING_JOINER. */
const TOSTRING_JOINER = (v1: string, v2: string | null): string => `${v1}+${String(v2)}`
const FIVE_MINUTES = 5 * 60_000

function errorOf(fn: () => unknown): StreamsError | undefined {
  try {
    fn()
  } catch (err) {
    return err as StreamsError
  }
  return undefined
}

describe('KStream-KTable join with a grace period (port of KStreamKTableJoinTest)', () => {
  const NOT_VERSIONED = 'KTable must be versioned to use a grace period in a stream table join.'
  const SHORT_HISTORY = 'History retention must be at least grace period.'
  /** Kafka's cases: the table's store, whether a filter inherits it, the grace period, and where it fails with what. */
  const cases: Array<{
    readonly name: string
    readonly store: () => Materialized<string, string> | undefined
    readonly filtered: boolean
    readonly graceMs: number
    readonly fails?: { readonly at: 'join' | 'build'; readonly message: string }
  }> = [
    {
      name: 'shouldFailIfTableIsNotVersioned (at join())',
      store: () => undefined,
      filtered: false,
      graceMs: 6,
      fails: { at: 'join', message: NOT_VERSIONED }
    },
    {
      name: 'shouldFailIfTableIsNotVersionedButMaterializationIsInherited (at build())',
      store: () => Materialized.as(Stores.inMemoryKeyValueStore('tableB')),
      filtered: true,
      graceMs: 6,
      fails: { at: 'build', message: NOT_VERSIONED }
    },
    {
      name: 'shouldNotFailIfTableIsVersionedButMaterializationIsInherited',
      store: () => Materialized.as(Stores.inMemoryVersionedKeyValueStore('tableB', FIVE_MINUTES)),
      filtered: true,
      graceMs: 6
    },
    {
      name: 'shouldFailIfGracePeriodIsLongerThanHistoryRetention',
      store: () => Materialized.as(Stores.inMemoryVersionedKeyValueStore('tableB', FIVE_MINUTES)),
      filtered: false,
      graceMs: 6 * 60_000,
      fails: { at: 'build', message: SHORT_HISTORY }
    },
    {
      name: 'shouldFailIfGracePeriodIsLongerThanHistoryRetentionAndInheritedStore',
      store: () => Materialized.as(Stores.inMemoryVersionedKeyValueStore('V-grace', 0)),
      filtered: true,
      graceMs: 6,
      fails: { at: 'build', message: SHORT_HISTORY }
    }
  ]
  for (const c of cases) {
    it(c.name, () => {
      const builder = new StreamsBuilder()
      const store = c.store()
      const source =
        store === undefined ? builder.table('topic2', Consumed.with(S, S)) : builder.table('topic2', Consumed.with(S, S), store)
      const tableB = c.filtered ? source.filter(() => true) : source
      const joinError = errorOf(() =>
        builder
          .stream('topic', Consumed.with(S, S))
          .join(tableB, (a, b) => a + b, Joined.with(S, S, S, 'first-join', c.graceMs))
          .to('out-one')
      )
      const buildError = joinError === undefined ? errorOf(() => builder.build({ topologyOptimization: 'none' })) : undefined
      const error = c.fails?.at === 'join' ? joinError : buildError
      if (c.fails === undefined) {
        expect([joinError, buildError]).to.deep.equal([undefined, undefined])
        return
      }
      expect(c.fails.at === 'join' ? buildError : joinError).to.equal(undefined)
      expect(error?.code).to.equal('ILLEGAL_ARGUMENT')
      expect(error?.message).to.equal(c.fails.message)
    })
  }

  it('a negative grace period is refused', () => {
    expect(() => Joined.as('j').withGracePeriod(-1))
      .to.throw('grace period must be a non-negative')
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  describe('joins delayed by the grace period (makeJoin: a versioned table with 5 minutes of history, a grace of 2 ms)', () => {
    let driver: TopologyTestDriver
    let stream: TestInputTopic<number, string>
    let table: TestInputTopic<number, string>
    let processed: Array<KVT<number, string>>

    function makeJoin(graceMs: number, valueSerde: Serde<string> = S): void {
      const builder = new StreamsBuilder()
      const consumed = Consumed.with(I, S)
      const versioned = builder.table(
        'tableTopic2',
        consumed,
        Materialized.as<number, string>(Stores.inMemoryVersionedKeyValueStore('V-grace', FIVE_MINUTES))
      )
      const captured = capture<number, string>()
      processed = captured.processed
      builder
        .stream('streamTopic', consumed)
        .join(versioned, TOSTRING_JOINER, Joined.with(I, valueSerde, S, 'Grace', graceMs))
        .process(captured.supplier)
      driver = new TopologyTestDriver(builder.build())
      stream = driver.createInputTopic('streamTopic', I, S)
      table = driver.createInputTopic('tableTopic2', I, S)
    }
    const pushToStream = (count: number, prefix: string): void => {
      for (let i = 0; i < count; i++) stream.pipeInput(KEYS[i]!, prefix + KEYS[i], i)
    }
    const pushToTableNonRandom = (count: number, prefix: string): void => {
      for (let i = 0; i < count; i++) table.pipeInput(KEYS[i]!, prefix + KEYS[i], 0)
    }
    const checkAndClear = (...expected: Array<KVT<number, string>>): void => {
      expect(processed).to.deep.equal(expected)
      processed.length = 0
    }
    afterEach(() => {
      driver.close()
    })

    it('shouldDelayJoinByGracePeriod', () => {
      makeJoin(2)
      pushToTableNonRandom(4, 'Y')
      checkAndClear()
      pushToStream(4, 'X')
      checkAndClear([0, 'X0+Y0', 0], [1, 'X1+Y1', 1])
      pushToTableNonRandom(4, 'YY')
      checkAndClear()
      pushToStream(4, 'X')
      checkAndClear([0, 'X0+YY0', 0], [1, 'X1+YY1', 1])
      stream.pipeInput(5, 'test', 7)
      checkAndClear([2, 'X2+YY2', 2], [2, 'X2+YY2', 2], [3, 'X3+YY3', 3], [3, 'X3+YY3', 3])
      pushToTableNonRandom(4, 'YYY')
      checkAndClear()
    })

    it('shouldHandleLateJoinsWithGracePeriod', () => {
      makeJoin(2)
      pushToTableNonRandom(4, 'Y')
      checkAndClear()
      // four records into the buffer, the first two evicted
      pushToStream(4, 'X')
      checkAndClear([0, 'X0+Y0', 0], [1, 'X1+Y1', 1])
      // late: joined at once, nothing else evicted
      pushToStream(1, 'X')
      checkAndClear([0, 'X0+Y0', 0])
    })

    it('shouldDeserializeBufferedValueWithPutTimeHeadersDuringEviction', () => {
      // A value serde whose deserializer appends the "v" header it is handed: it shows which headers reached the buffer's deserializer.
      const headerAppending: Serde<string> = {
        serializer: () => S.serializer(),
        deserializer: (): Deserializer<string> => ({
          deserialize(topic, data, headers) {
            const base = S.deserializer().deserialize(topic, data)
            const header = headers?.lastHeader('v')
            return base === null || header?.value == null ? base : `${base}[${header.value.toString('utf8')}]`
          }
        })
      }
      makeJoin(2, headerAppending)
      table.pipeInput(0, 'Y0', 0)
      stream.pipeInput(new TestRecord(0, 'X0', 0, new Headers({ v: 'first' })))
      checkAndClear()
      // B (t=10) evicts A while B's headers are the live ones; A must be read with its own.
      stream.pipeInput(new TestRecord(1, 'X1', 10, new Headers({ v: 'second' })))
      checkAndClear([0, 'X0[first]+Y0', 0])
    })

    it('the buffer is a store named <join>-Buffer whose changelog carries Kafka bytes: the time-first key and the BufferValue, a tombstone once joined', () => {
      makeJoin(2)
      table.pipeInput(0, 'Y0', 0)
      stream.pipeInput(new TestRecord(0, 'X0', 5, new Headers({ h: 'v' })))
      const changelog = driver.createOutputTopic(
        'dummy-topology-test-driver-app-id-Grace-Buffer-changelog',
        Serdes.Buffer(),
        Serdes.Buffer()
      )
      const [put] = changelog.readRecordsToList()
      // 0x00 prefix, timestamp 5, the Integer key 0, sequence number 1
      expect(put!.key!.toString('hex')).to.equal(`00${'0000000000000005'}${'00000000'}${'00000001'}`)
      const value = put!.value!
      // ProcessorRecordContext: timestamp, offset, topic, partition, headers; no prior, no old, the value, buffer time 0
      const topic = Buffer.from('streamTopic')
      const expected = Buffer.concat([
        Buffer.from('0000000000000005' + '0000000000000000', 'hex'),
        int32(topic.length),
        topic,
        int32(0),
        int32(1),
        int32(1),
        Buffer.from('h'),
        int32(1),
        Buffer.from('v'),
        int32(-1),
        int32(-1),
        int32(2),
        Buffer.from('X0'),
        Buffer.alloc(8)
      ])
      expect(value.toString('hex')).to.equal(expected.toString('hex'))
      stream.pipeInput(1, 'X1', 7)
      expect(processed).to.deep.equal([[0, 'X0+Y0', 5]])
      const records = changelog.readRecordsToList()
      // X1 buffered, then X0 joined and removed
      expect(records.map(r => [r.key!.readBigInt64BE(1), r.value === null])).to.deep.equal([
        [7n, false],
        [5n, true]
      ])
      expect(driver.getStateStore('Grace-Buffer')?.persistent).to.equal(false)
    })
  })

  it('describe(): the join processor holds the table store and its buffer', () => {
    const builder = new StreamsBuilder()
    const versioned = builder.table(
      'tableTopic2',
      Consumed.with(I, S),
      Materialized.as<number, string>(Stores.inMemoryVersionedKeyValueStore('V-grace', FIVE_MINUTES))
    )
    builder
      .stream('streamTopic', Consumed.with(I, S))
      .join(versioned, TOSTRING_JOINER, Joined.with(I, S, S, 'Grace', 2))
      .to('out')
    const text = builder.build().describe().toString()
    expect(text).to.contain('Processor: Grace (stores: [Grace-Buffer, V-grace])')
  })

  it('a left join with a grace period: a null-key record joins at once, the others wait', () => {
    const builder = new StreamsBuilder()
    const versioned = builder.table(
      'tableTopic2',
      Consumed.with(I, S),
      Materialized.as<number, string>(Stores.inMemoryVersionedKeyValueStore('V-grace', FIVE_MINUTES))
    )
    const captured = capture<number, string>()
    builder
      .stream('streamTopic', Consumed.with(I, S))
      .leftJoin(versioned, TOSTRING_JOINER, Joined.with(I, S, S).withGracePeriod(3))
      .process(captured.supplier)
    const driver = new TopologyTestDriver(builder.build())
    try {
      const stream = driver.createInputTopic('streamTopic', I, S)
      driver.createInputTopic('tableTopic2', I, S).pipeInput(1, 'Y1', 0)
      stream.pipeInput(1, 'A', 10)
      stream.pipeInput(null, 'N', 11)
      stream.pipeInput(2, 'B', 12)
      expect(captured.processed).to.deep.equal([[null, 'N+null', 11]])
      stream.pipeInput(3, 'C', 15)
      expect(captured.processed.slice(1)).to.deep.equal([
        [1, 'A+Y1', 10],
        [2, 'B+null', 12]
      ])
    } finally {
      driver.close()
    }
  })
})

function int32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}
