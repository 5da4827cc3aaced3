import { expect } from 'chai'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import { StreamJoined } from '../../src/stream-joined.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { capture } from '../helpers.js'
import { JoinWindows } from '../../src/join-windows.js'
import type { OuterJoinStore } from '../../src/internal/outer-join-store.js'
import { I, S, droppedRecords, joiner, streamStreamJoin } from './join-helpers.js'

describe('KStream-KStream outer join (KStreamKStreamOuterJoinTest)', () => {
  it('names its processors and stores OUTERTHIS / OUTEROTHER / OUTERSHARED', () => {
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    expect([...f.driver.getAllStateStores().keys()].sort()).to.deep.equal([
      'KSTREAM-OUTEROTHER-0000000005-store',
      'KSTREAM-OUTERSHARED-0000000004-store',
      'KSTREAM-OUTERTHIS-0000000004-store'
    ])
    f.driver.close()
  })

  it('emits unmatched duplicates of both sides once their window closed, right side first at equal timestamps (testOuterJoinDuplicates)', () => {
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 10))
    f.left.pipeInput(0, 'A0', 0)
    f.left.pipeInput(0, 'A0-0', 0)
    f.right.pipeInput(1, 'a1', 0)
    f.right.pipeInput(1, 'a1-0', 0)
    f.right.pipeInput(1, 'a0', 111)
    f.right.pipeInput(3, 'dummy', 211)
    expect(f.take()).to.deep.equal([
      [1, 'null+a1', 0],
      [1, 'null+a1-0', 0],
      [0, 'A0+null', 0],
      [0, 'A0-0+null', 0]
    ])
    f.left.pipeInput(2, 'A2', 200)
    f.left.pipeInput(2, 'A2-0', 200)
    f.right.pipeInput(2, 'a2', 201)
    f.right.pipeInput(2, 'a2-0', 201)
    expect(f.take()).to.deep.equal([
      [2, 'A2+a2', 201],
      [2, 'A2-0+a2', 201],
      [2, 'A2+a2-0', 201],
      [2, 'A2-0+a2-0', 201]
    ])
    // only the records that never joined come out
    f.right.pipeInput(3, 'dummy', 1500)
    expect(f.take()).to.deep.equal([
      [1, 'null+a0', 111],
      [3, 'null+dummy', 211]
    ])
    f.driver.close()
  })

  it('expired unmatched right records are emitted when the left side advances stream time (testRightExpiredNonJoinedRecordsAreEmittedByTheLeftProcessor)', () => {
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    f.right.pipeInput(0, 'A0', 1)
    f.right.pipeInput(1, 'A1', 2)
    f.right.pipeInput(0, 'A0-0', 3)
    expect(f.take()).to.deep.equal([])
    f.left.pipeInput(1, 'a1', 3)
    expect(f.take()).to.deep.equal([[1, 'a1+A1', 3]])
    f.left.pipeInput(2, 'dummy', 401)
    expect(f.take()).to.deep.equal([
      [0, 'null+A0', 1],
      [0, 'null+A0-0', 3]
    ])
    f.right.pipeInput(2, 'dummy', 402)
    expect(f.take()).to.deep.equal([[2, 'dummy+dummy', 402]])
    f.driver.close()
  })

  it('... and when the right side advances it (testRightExpiredNonJoinedRecordsAreEmittedByTheRightProcessor)', () => {
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 0))
    f.right.pipeInput(0, 'A0', 1)
    f.right.pipeInput(1, 'A1', 2)
    f.right.pipeInput(0, 'A0-0', 3)
    f.left.pipeInput(1, 'a1', 3)
    expect(f.take()).to.deep.equal([[1, 'a1+A1', 3]])
    f.right.pipeInput(2, 'dummy', 401)
    expect(f.take()).to.deep.equal([
      [0, 'null+A0', 1],
      [0, 'null+A0-0', 3]
    ])
    f.left.pipeInput(2, 'dummy', 402)
    expect(f.take()).to.deep.equal([[2, 'dummy+dummy', 402]])
    f.driver.close()
  })

  it('a record whose window ended but has not closed waits for the grace period (testGracePeriod)', () => {
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceAndGrace(100, 10))
    f.left.pipeInput(0, 'A0', 0)
    f.right.pipeInput(1, 'a1', 0)
    expect(f.take()).to.deep.equal([])
    f.right.pipeInput(0, 'a0', 101)
    f.left.pipeInput(1, 'A1', 101)
    expect(f.take()).to.deep.equal([])
    f.right.pipeInput(0, 'dummy', 211)
    expect(f.take()).to.deep.equal([
      [1, 'null+a1', 0],
      [0, 'A0+null', 0]
    ])
    f.driver.close()
  })

  for (const custom of [false, true]) {
    it(`joins every duplicate and emits nothing for joined records (runOuterJoin, ${custom ? 'in-memory custom suppliers' : 'default suppliers'})`, () => {
      const windows = JoinWindows.ofTimeDifferenceWithNoGrace(100)
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<number, string>()
      let sj = StreamJoined.with(I, S, S)
      if (custom) {
        sj = sj
          .withThisStoreSupplier(
            Stores.inMemoryWindowStore('in-memory-join-store', windows.size() + windows.gracePeriodMs(), windows.size(), true)
          )
          .withOtherStoreSupplier(
            Stores.inMemoryWindowStore('in-memory-join-store-other', windows.size() + windows.gracePeriodMs(), windows.size(), true)
          )
      }
      builder
        .stream('topic1', Consumed.with(I, S))
        .outerJoin(builder.stream('topic2', Consumed.with(I, S)), joiner, windows, sj)
        .process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      expect([...driver.getAllStateStores().keys()].sort()).to.deep.equal(
        custom
          ? ['in-memory-join-store', 'in-memory-join-store-other', 'in-memory-join-store-outer-shared-join-store']
          : ['KSTREAM-OUTEROTHER-0000000005-store', 'KSTREAM-OUTERSHARED-0000000004-store', 'KSTREAM-OUTERTHIS-0000000004-store']
      )
      const t1 = driver.createInputTopic('topic1', I, S, 0, 0)
      const t2 = driver.createInputTopic('topic2', I, S, 0, 0)
      const take = (): unknown[] => processed.splice(0, processed.length)
      for (const k of [0, 1]) t1.pipeInput(k, 'A' + k)
      expect(take()).to.deep.equal([])
      for (const k of [0, 1]) t2.pipeInput(k, 'a' + k)
      expect(take()).to.deep.equal([
        [0, 'A0+a0', 0],
        [1, 'A1+a1', 0]
      ])
      for (const k of [0, 1, 2]) t1.pipeInput(k, 'B' + k)
      expect(take()).to.deep.equal([
        [0, 'B0+a0', 0],
        [1, 'B1+a1', 0]
      ])
      for (const k of [0, 1, 2, 3]) t2.pipeInput(k, 'b' + k)
      expect(take()).to.deep.equal([
        [0, 'A0+b0', 0],
        [0, 'B0+b0', 0],
        [1, 'A1+b1', 0],
        [1, 'B1+b1', 0],
        [2, 'B2+b2', 0]
      ])
      for (const k of [0, 1, 2, 3]) t1.pipeInput(k, 'C' + k)
      expect(take()).to.deep.equal([
        [0, 'C0+a0', 0],
        [0, 'C0+b0', 0],
        [1, 'C1+a1', 0],
        [1, 'C1+b1', 0],
        [2, 'C2+b2', 0],
        [3, 'C3+b3', 0]
      ])
      // every record joined: the expiry pass emits nothing
      t1.pipeInput(0, 'dummy', 400)
      expect(take()).to.deep.equal([])
      driver.close()
    })
  }

  it('left and right windows close separately with an asymmetric window', () => {
    // left records join right records in [ts - 0, ts + 50]; a right record joins left records in [ts - 50, ts]
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceWithNoGrace(0).after(50))
    f.left.pipeInput(0, 'L', 10)
    f.right.pipeInput(1, 'R', 10)
    // the left processor only looks when a left window (50 ms) may have closed: not yet at 11
    f.left.pipeInput(9, 'x', 11)
    expect(f.take()).to.deep.equal([])
    // the right processor looks at once: R's window closed, L's is still open
    f.right.pipeInput(8, 'z', 12)
    expect(f.take()).to.deep.equal([[1, 'null+R', 10]])
    // as in Kafka, the pass left minTime at the last record it visited (x at 11), not at L (10):
    // the next look happens once 11 + 50 < stream time
    f.left.pipeInput(7, 'y', 61)
    expect(f.take()).to.deep.equal([])
    f.left.pipeInput(6, 'w', 62)
    expect(f.take()).to.deep.equal([
      [0, 'L+null', 10],
      [9, 'x+null', 11],
      [8, 'null+z', 12]
    ])
    f.driver.close()
  })

  it("keeps waiting records in Kafka's byte layout: <timestamp><side><key> -> <side><value>, duplicates as a list", () => {
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    f.left.pipeInput(1, 'A', 5)
    f.left.pipeInput(1, 'B', 5)
    f.right.pipeInput(2, 'c', 4)
    const store = f.driver.getStateStore<OuterJoinStore>('KSTREAM-OUTERSHARED-0000000004-store')!
    const entries = [...store.entries()].map(e => [e.key.toString('hex'), e.value.toString('hex')])
    expect(entries).to.deep.equal([
      ['0000000000000004' + '00' + '00000002', '00' + '63'],
      ['0000000000000005' + '01' + '00000001', '01' + '41'],
      ['0000000000000005' + '01' + '00000001', '01' + '42']
    ])
    f.driver.close()
  })

  it('a record with a null key is joined with null at once on either side (KIP-962); null values are dropped and counted', () => {
    const f = streamStreamJoin('outerJoin', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    f.left.pipeInput(null, 'A', 5)
    f.right.pipeInput(null, 'a', 6)
    expect(f.take()).to.deep.equal([
      [null, 'A+null', 5],
      [null, 'null+a', 6]
    ])
    f.left.pipeInput(1, null, 7)
    f.right.pipeInput(1, null, 8)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(2)
    f.driver.close()
  })
})
