import { expect } from 'chai'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import { JoinWindows } from '../../src/join-windows.js'
import { StreamJoined } from '../../src/stream-joined.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { capture } from '../helpers.js'
import { I, S, droppedRecords, joiner, streamStreamJoin } from './join-helpers.js'

describe('KStream-KStream left join (KStreamKStreamLeftJoinTest)', () => {
  it('keeps two window stores and the shared outer store', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    expect([...f.driver.getAllStateStores().keys()].sort()).to.deep.equal([
      'KSTREAM-JOINTHIS-0000000004-store',
      'KSTREAM-OUTEROTHER-0000000005-store',
      'KSTREAM-OUTERSHARED-0000000004-store'
    ])
    f.driver.close()
  })

  it('emits unmatched duplicates once their window closed, and matched duplicates at once (testLeftJoinDuplicates)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 10))
    f.left.pipeInput(0, 'A0', 0)
    f.left.pipeInput(0, 'A0-0', 0)
    expect(f.take()).to.deep.equal([])
    f.right.pipeInput(1, 'a0', 111)
    f.right.pipeInput(2, 'dummy', 500)
    expect(f.take()).to.deep.equal([
      [0, 'A0+null', 0],
      [0, 'A0-0+null', 0]
    ])
    f.left.pipeInput(2, 'A2', 1000)
    f.left.pipeInput(2, 'A2-0', 1000)
    f.right.pipeInput(2, 'a2', 1001)
    expect(f.take()).to.deep.equal([
      [2, 'A2+a2', 1001],
      [2, 'A2-0+a2', 1001]
    ])
    // would expire A2 and A2-0, but they were joined: nothing more
    f.right.pipeInput(3, 'a3', 315)
    expect(f.take()).to.deep.equal([])
    f.driver.close()
  })

  it('no null result until the window closes: 100 + grace 10 after the record (spurious-result fix)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 10))
    f.left.pipeInput(0, 'A0', 0)
    f.right.pipeInput(9, 'x', 110)
    expect(f.take()).to.deep.equal([])
    // stream time 111 > 0 + 100 + 10: the window of A0 closed
    f.right.pipeInput(9, 'y', 111)
    expect(f.take()).to.deep.equal([[0, 'A0+null', 0]])
    f.driver.close()
  })

  it('expired unmatched left records are emitted when the left side advances stream time (testLeftExpiredNonJoinedRecordsAreEmittedByTheLeftProcessor)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 0))
    f.left.pipeInput(0, 'A0', 1)
    f.left.pipeInput(1, 'A1', 2)
    f.left.pipeInput(0, 'A0-0', 3)
    expect(f.take()).to.deep.equal([])
    f.right.pipeInput(1, 'a1', 3)
    expect(f.take()).to.deep.equal([[1, 'A1+a1', 3]])
    f.left.pipeInput(2, 'dummy', 401)
    expect(f.take()).to.deep.equal([
      [0, 'A0+null', 1],
      [0, 'A0-0+null', 3]
    ])
    f.right.pipeInput(2, 'dummy', 401)
    expect(f.take()).to.deep.equal([[2, 'dummy+dummy', 401]])
    f.driver.close()
  })

  it('... and when the right side advances it (testLeftExpiredNonJoinedRecordsAreEmittedByTheRightProcessor)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 0))
    f.left.pipeInput(0, 'A0', 1)
    f.left.pipeInput(1, 'A1', 2)
    f.left.pipeInput(0, 'A0-0', 3)
    f.right.pipeInput(1, 'a1', 3)
    expect(f.take()).to.deep.equal([[1, 'A1+a1', 3]])
    f.right.pipeInput(2, 'dummy', 401)
    expect(f.take()).to.deep.equal([
      [0, 'A0+null', 1],
      [0, 'A0-0+null', 3]
    ])
    f.left.pipeInput(2, 'dummy', 402)
    expect(f.take()).to.deep.equal([[2, 'dummy+dummy', 402]])
    f.driver.close()
  })

  it('unmatched right records are never emitted (testRightNonJoinedRecordsAreNeverEmittedByTheLeftProcessor)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 0))
    f.right.pipeInput(0, 'A0', 1)
    f.right.pipeInput(1, 'A1', 2)
    f.right.pipeInput(0, 'A0-0', 3)
    expect(f.take()).to.deep.equal([])
    f.left.pipeInput(1, 'a1', 3)
    expect(f.take()).to.deep.equal([[1, 'a1+A1', 3]])
    f.left.pipeInput(2, 'dummy', 401)
    expect(f.take()).to.deep.equal([])
    f.right.pipeInput(2, 'dummy', 402)
    expect(f.take()).to.deep.equal([[2, 'dummy+dummy', 402]])
    f.driver.close()
  })

  it('a late unmatched record whose window already ended is emitted at once (testLowerWindowBound)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 1000))
    f.left.pipeInput(1, 'B', 1000)
    expect(f.take()).to.deep.equal([])
    // 5 + 100 < stream time 1000: no later right record can match it
    f.left.pipeInput(0, 'A', 5)
    expect(f.take()).to.deep.equal([[0, 'A+null', 5]])
    f.driver.close()
  })

  it('expired records are emitted in timestamp order, then by key bytes', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceWithNoGrace(10))
    f.left.pipeInput(3, 'C', 5)
    f.left.pipeInput(1, 'A', 5)
    f.left.pipeInput(2, 'B', 4)
    f.left.pipeInput(9, 'Z', 7)
    expect(f.take()).to.deep.equal([])
    f.right.pipeInput(9, 'z', 16)
    expect(f.take()).to.deep.equal([
      [2, 'B+null', 4],
      [1, 'A+null', 5],
      [3, 'C+null', 5],
      [9, 'Z+z', 16]
    ])
    f.driver.close()
  })

  it('emission passes are throttled by outerJoinEmitIntervalMs (wall-clock)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceWithNoGrace(10), { outerJoinEmitIntervalMs: 1000 })
    f.left.pipeInput(0, 'A', 0)
    f.left.pipeInput(1, 'B', 20)
    // a pass ran at record A (over an empty store): the next one is due 1000 ms of wall-clock time later
    expect(f.take()).to.deep.equal([])
    f.driver.advanceWallClockTime(1000)
    f.left.pipeInput(2, 'C', 21)
    expect(f.take()).to.deep.equal([[0, 'A+null', 0]])
    f.driver.close()
  })

  it('a left record with a null key is joined with null at once; one with a null value is dropped and counted (KIP-962)', () => {
    const f = streamStreamJoin('leftJoin', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    f.left.pipeInput(null, 'A', 5)
    expect(f.take()).to.deep.equal([[null, 'A+null', 5]])
    f.left.pipeInput(1, null, 6)
    f.right.pipeInput(null, 'a', 7)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(2)
    f.driver.close()
  })

  it("after a key change, records whose new key is null pass the repartition topic to a left join (KIP-962) and join with null; an inner join's repartition filter drops them", () => {
    const run = (left: boolean): { processed: Array<[string | null, string | null, number]>; dropped: number } => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<string, string>()
      const keyed = builder.stream('t1', Consumed.with(S, S)).selectKey((k, v) => (v === 'none' ? (null as unknown as string) : k))
      const other = builder.stream('t2', Consumed.with(S, S))
      const w = JoinWindows.ofTimeDifferenceWithNoGrace(10)
      const sj = StreamJoined.with(S, S, S)
      ;(left ? keyed.leftJoin(other, joiner, w, sj) : keyed.join(other, joiner, w, sj)).process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      driver.createInputTopic('t1', S, S).pipeInput('k', 'none', 5)
      const dropped = droppedRecords(driver.metrics())
      driver.close()
      return { processed, dropped }
    }
    expect(run(true)).to.deep.equal({ processed: [[null, 'none+null', 5]], dropped: 0 })
    expect(run(false)).to.deep.equal({ processed: [], dropped: 0 })
  })

  it('a ValueJoinerWithKey gets the key of expired records too', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<number, string>()
    builder
      .stream('t1', Consumed.with(I, S))
      .leftJoin(
        builder.stream('t2', Consumed.with(I, S)),
        (k: number, v: string, o: string | null) => `${k}:${v}+${String(o)}`,
        JoinWindows.ofTimeDifferenceWithNoGrace(1),
        StreamJoined.with(I, S, S)
      )
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const t1 = driver.createInputTopic('t1', I, S)
    t1.pipeInput(4, 'A', 0)
    t1.pipeInput(5, 'B', 2)
    expect(processed).to.deep.equal([[4, '4:A+null', 0]])
    driver.close()
  })

  it('the outer store uses the default serdes when StreamJoined gives none', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    builder
      .stream<string, string>('t1')
      .leftJoin(builder.stream<string, string>('t2'), joiner, JoinWindows.ofTimeDifferenceWithNoGrace(1))
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    const t1 = driver.createInputTopic('t1', S, S)
    t1.pipeInput('k', 'A', 0)
    t1.pipeInput('m', 'B', 2)
    expect(processed).to.deep.equal([['k', 'A+null', 0]])
    driver.close()
  })
})
