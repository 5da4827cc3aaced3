/**
 * Review of the foreign-key join against Kafka Streams 4.x (KTableKTableForeignKeyJoinIntegrationTest
 * behaviours): which deletes of the left side produce a tombstone, with and without a
 * materialized (or re-joined) result, and the timestamps of the results.
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Materialized, StreamsBuilder } from '../../src/index.js'
import type { KTable } from '../../src/ktable.js'

const S = Serdes.String()
const consumed = Consumed.with(S, S)
const fk = (value: string): string | null => value.split('|')[1] ?? null
const joiner = (l: string | null, r: string | null): string => `(${String(l)},${String(r)})`

type Out = [string | null, string | null, number]
type Mode = { leftJoin: boolean; materialized: boolean; rejoin: boolean }

function run(
  mode: Mode,
  steps: (pipe: {
    left: (k: string, v: string | null, ts: number) => void
    right: (k: string, v: string | null, ts: number) => void
    read: () => Out[]
  }) => void
): void {
  const builder = new StreamsBuilder()
  const l = builder.table('left', consumed)
  const r = builder.table('right', consumed)
  const m = mode.materialized ? Materialized.as<string, string>('fk-store') : undefined
  const joined: KTable<string, string> = mode.leftJoin
    ? m === undefined
      ? l.leftJoin(r, fk, joiner)
      : l.leftJoin(r, fk, joiner, m)
    : m === undefined
      ? l.join(r, fk, joiner)
      : l.join(r, fk, joiner, m)
  joined.toStream().to('output')
  if (mode.rejoin)
    joined
      .join(r, (a: string, b: string) => `rejoin(${a},${b})`)
      .toStream()
      .to('rejoin-output')
  const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
  try {
    const leftIn = driver.createInputTopic('left', S, S)
    const rightIn = driver.createInputTopic('right', S, S)
    const out = driver.createOutputTopic('output', S, S)
    steps({
      left: (k, v, ts) => {
        leftIn.pipeInput(k, v, ts)
      },
      right: (k, v, ts) => {
        rightIn.pipeInput(k, v, ts)
      },
      read: () => out.readRecordsToList().map(rec => [rec.key, rec.value, rec.timestamp])
    })
  } finally {
    driver.close()
  }
}

const MODES: Mode[] = []
for (const leftJoin of [false, true]) {
  for (const materialized of [false, true]) {
    for (const rejoin of [false, true]) MODES.push({ leftJoin, materialized, rejoin })
  }
}

describe('review: foreign-key join tombstones and timestamps', () => {
  for (const mode of MODES) {
    const label = `${mode.leftJoin ? 'left' : 'inner'}${mode.materialized ? ', materialized' : ''}${mode.rejoin ? ', re-joined' : ''}`

    it(`deleting a non-joining left record (${label})`, () => {
      run(mode, ({ left, read }) => {
        left('lhs1', 'lhsValue1|rhs1', 10)
        expect(read()).to.deep.equal(mode.leftJoin ? [['lhs1', '(lhsValue1|rhs1,null)', 10]] : [])
        // an inner join cannot know whether a result was sent: a tombstone, unless a (caching) result store knows
        left('lhs1', null, 11)
        expect(read()).to.deep.equal(mode.leftJoin || !(mode.materialized || mode.rejoin) ? [['lhs1', null, 11]] : [])
      })
    })

    it(`deleting a non-existing left record sends nothing (${label})`, () => {
      run(mode, ({ left, read }) => {
        left('lhs1', null, 5)
        expect(read()).to.deep.equal([])
      })
    })

    it(`joins, follows the right side and deletes with Kafka's timestamps (${label})`, () => {
      run(mode, ({ left, right, read }) => {
        right('rhs1', 'rhsValue1', 20)
        right('rhs2', 'rhsValue2', 1)
        expect(read()).to.deep.equal([])
        // max(left, right) on subscription; the right update's own timestamp on a right update
        left('lhs1', 'lhsValue1|rhs1', 5)
        left('lhs2', 'lhsValue2|rhs2', 6)
        expect(read()).to.deep.equal([
          ['lhs1', '(lhsValue1|rhs1,rhsValue1)', 20],
          ['lhs2', '(lhsValue2|rhs2,rhsValue2)', 6]
        ])
        right('rhs1', 'rhsValue1b', 7)
        expect(read()).to.deep.equal([['lhs1', '(lhsValue1|rhs1,rhsValue1b)', 7]])
        // a foreign key change to a missing right key: null result (inner) or the left value alone (left)
        left('lhs2', 'lhsValue2|rhs9', 8)
        expect(read()).to.deep.equal([['lhs2', mode.leftJoin ? '(lhsValue2|rhs9,null)' : null, 8]])
        // a right delete: tombstone (inner) or left value alone (left)
        right('rhs1', null, 9)
        expect(read()).to.deep.equal([['lhs1', mode.leftJoin ? '(lhsValue1|rhs1,null)' : null, 9]])
        // a null foreign key: the left join keeps the left value, the inner join has nothing to delete but still sends a tombstone
        left('lhs1', 'lhsValue1', 12)
        expect(read()).to.deep.equal(
          mode.leftJoin ? [['lhs1', '(lhsValue1,null)', 12]] : mode.materialized || mode.rejoin ? [] : [['lhs1', null, 12]]
        )
      })
    })
  }
})
