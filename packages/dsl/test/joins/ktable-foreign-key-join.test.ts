import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Materialized, Produced, StreamsBuilder } from '../../src/index.js'
import type { KTable } from '../../src/ktable.js'
import { TableJoined } from '../../src/table-joined.js'
import { droppedRecordsTotal as droppedRecords } from '../helpers.js'

const S = Serdes.String()
const consumed = Consumed.with(S, S)
/** Left values are `<foreign key>|<data>`; an empty foreign key is null. */
const fk = (value: string): string | null => value.split('|')[0] || null
const joiner = (l: string | null, r: string | null): string => `(${String(l)},${String(r)})`

type Out = [string | null, string | null, number]

function setup(join: (left: KTable<string, string>, right: KTable<string, string>) => KTable<string, string>): {
  driver: TopologyTestDriver
  left: (k: string, v: string | null, ts: number) => void
  right: (k: string, v: string | null, ts: number) => void
  read: () => Out[]
} {
  const builder = new StreamsBuilder()
  const l = builder.table('left', consumed)
  const r = builder.table('right', consumed)
  join(l, r).toStream().to('output')
  const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
  const leftIn = driver.createInputTopic('left', S, S)
  const rightIn = driver.createInputTopic('right', S, S)
  const out = driver.createOutputTopic('output', S, S)
  return {
    driver,
    left: (k, v, ts) => {
      leftIn.pipeInput(k, v, ts)
    },
    right: (k, v, ts) => {
      rightIn.pipeInput(k, v, ts)
    },
    read: () => out.readRecordsToList().map(rec => [rec.key, rec.value, rec.timestamp])
  }
}

describe('KTable-KTable foreign-key join (KTableKTableForeignKeyJoinScenarioTest)', () => {
  it('inner join: subscribes, follows right updates, foreign-key changes and deletes on both sides', () => {
    const t = setup((l, r) => l.join(r, fk, joiner))
    t.right('r1', 'rv1', 1)
    expect(t.read()).to.deep.equal([])
    t.left('lhs1', 'r1|a', 2)
    expect(t.read()).to.deep.equal([['lhs1', '(r1|a,rv1)', 2]])
    t.left('lhs2', 'r2|b', 3)
    expect(t.read(), 'no right value yet').to.deep.equal([])
    t.right('r2', 'rv2', 4)
    expect(t.read()).to.deep.equal([['lhs2', '(r2|b,rv2)', 4]])
    t.right('r1', 'rv1b', 5)
    expect(t.read()).to.deep.equal([['lhs1', '(r1|a,rv1b)', 5]])
    t.left('lhs1', 'r2|c', 6)
    expect(t.read(), 'foreign key change').to.deep.equal([['lhs1', '(r2|c,rv2)', 6]])
    t.right('r2', 'rv2b', 7)
    expect(t.read(), 'every subscriber, by primary key').to.deep.equal([
      ['lhs1', '(r2|c,rv2b)', 7],
      ['lhs2', '(r2|b,rv2b)', 7]
    ])
    t.right('r1', 'rv1c', 8)
    expect(t.read(), 'lhs1 left r1').to.deep.equal([])
    t.left('lhs2', 'r3|d', 9)
    expect(t.read(), 'a new foreign key without value unsets the result').to.deep.equal([['lhs2', null, 9]])
    t.right('r2', null, 10)
    expect(t.read(), 'right delete').to.deep.equal([['lhs1', null, 10]])
    t.left('lhs1', null, 11)
    expect(t.read(), 'left delete (an unnecessary tombstone, as Kafka emits it)').to.deep.equal([['lhs1', null, 11]])
    t.left('lhs3', '|x', 12)
    expect(t.read(), 'a null foreign key is dropped').to.deep.equal([])
    expect(droppedRecords(t.driver.metrics())).to.equal(1)
    t.left('lhs4', 'r1|e', 13)
    t.left('lhs4', 'r1|f', 14)
    expect(t.read(), 'same foreign key, new left value').to.deep.equal([
      ['lhs4', '(r1|e,rv1c)', 13],
      ['lhs4', '(r1|f,rv1c)', 14]
    ])
    t.left('lhs4', '|g', 15)
    expect(t.read(), 'a null foreign key after a valid one unsets the result').to.deep.equal([['lhs4', null, 15]])
    t.driver.close()
  })

  it('left join: a result for every left record, null for a missing right value', () => {
    const t = setup((l, r) => l.leftJoin(r, fk, joiner))
    t.right('r1', 'rv1', 1)
    t.left('lhs1', 'r1|a', 2)
    t.left('lhs2', 'r2|b', 3)
    expect(t.read()).to.deep.equal([
      ['lhs1', '(r1|a,rv1)', 2],
      ['lhs2', '(r2|b,null)', 3]
    ])
    t.right('r2', 'rv2', 4)
    t.right('r1', 'rv1b', 5)
    expect(t.read()).to.deep.equal([
      ['lhs2', '(r2|b,rv2)', 4],
      ['lhs1', '(r1|a,rv1b)', 5]
    ])
    t.left('lhs1', 'r2|c', 6)
    t.right('r2', 'rv2b', 7)
    t.right('r1', 'rv1c', 8)
    expect(t.read()).to.deep.equal([
      ['lhs1', '(r2|c,rv2)', 6],
      ['lhs1', '(r2|c,rv2b)', 7],
      ['lhs2', '(r2|b,rv2b)', 7]
    ])
    t.left('lhs2', 'r3|d', 9)
    t.right('r2', null, 10)
    expect(t.read()).to.deep.equal([
      ['lhs2', '(r3|d,null)', 9],
      ['lhs1', '(r2|c,null)', 10]
    ])
    t.left('lhs1', null, 11)
    expect(t.read(), 'left delete').to.deep.equal([['lhs1', null, 11]])
    t.left('lhs3', '|x', 12)
    expect(t.read(), 'a null foreign key still joins with null').to.deep.equal([['lhs3', '(|x,null)', 12]])
    t.left('lhs9', null, 13)
    expect(t.read(), 'deleting an absent key emits nothing').to.deep.equal([])
    expect(droppedRecords(t.driver.metrics())).to.equal(0)
    t.driver.close()
  })

  it('drops a response answering a left value that has changed since (hash mismatch)', () => {
    const builder = new StreamsBuilder()
    // one input record becomes two updates of the same left key before any response comes back
    const left = builder
      .stream('in', consumed)
      .flatMap((k, v) => v.split(',').map(part => KeyValue.pair(k, part)))
      .toTable(Materialized.with(S, S))
    const right = builder.table('right', consumed)
    left.join(right, fk, joiner).toStream().to('output')
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    driver.createInputTopic('right', S, S).pipeInput('r1', 'rv1', 1)
    driver.createInputTopic('in', S, S).pipeInput('lhs1', 'r1|a,r1|b', 2)
    const out = driver
      .createOutputTopic('output', S, S)
      .readRecordsToList()
      .map(rec => [rec.key, rec.value, rec.timestamp])
    expect(out).to.deep.equal([['lhs1', '(r1|b,rv1)', 2]])
    expect(droppedRecords(driver.metrics())).to.equal(1)
    driver.close()
  })

  it('a materialized result is queryable', () => {
    const builder = new StreamsBuilder()
    const l = builder.table('left', consumed)
    const r = builder.table('right', consumed)
    const joined = l.join(
      r,
      (_key: string, value: string) => `${fk(value) ?? ''}`,
      joiner,
      Materialized.as<string, string>('fk-result').withValueSerde(S)
    )
    expect(joined.queryableStoreName).to.equal('fk-result')
    joined.toStream().to('output')
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    driver.createInputTopic('right', S, S).pipeInput('r1', 'rv1', 1)
    driver.createInputTopic('left', S, S).pipeInput('lhs1', 'r1|a', 2)
    expect(driver.getKeyValueStore<string, string>('fk-result')!.get('lhs1')).to.equal('(r1|a,rv1)')
    driver.close()
  })

  it('names its nodes, store and topics as Kafka Streams does', () => {
    const builder = new StreamsBuilder()
    const l = builder.table('left', consumed)
    const r = builder.table('right', consumed)
    l.join(r, fk, joiner).toStream().to('output')
    // the subscription topic goes with the right table's topic, the response topic with the left's
    expect(builder.build()[TOPOLOGY_DEF]().copartitionGroups).to.deep.equal([
      ['right', 'KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic'],
      ['left', 'KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic']
    ])
    const text = builder.build().describe().toString()
    for (const line of [
      'Processor: KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007 (stores: [])',
      'Sink: KTABLE-SINK-0000000008 (topic: KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic)',
      'Source: KTABLE-SOURCE-0000000009 (topics: [KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic])',
      'Processor: KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000011 (stores: [KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010])',
      'Processor: KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000012 (stores: [right-STATE-STORE-0000000003])',
      'Processor: KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000013 (stores: [KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010])',
      'Sink: KTABLE-SINK-0000000015 (topic: KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic)',
      'Source: KTABLE-SOURCE-0000000016 (topics: [KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic])',
      'Processor: KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-0000000017 (stores: [left-STATE-STORE-0000000000])',
      'Processor: KTABLE-FK-JOIN-OUTPUT-0000000018 (stores: [])',
      'Processor: KTABLE-TOSTREAM-0000000020 (stores: [])'
    ])
      expect(text).to.contain(line)
  })

  it('uses a TableJoined name for every node, store and topic', () => {
    const builder = new StreamsBuilder()
    const l = builder.table('left', consumed)
    const r = builder.table('right', consumed)
    const joined = l.leftJoin(r, fk, joiner, TableJoined.as<string, string>('fkj'))
    expect(joined.name).to.equal('fkj-result')
    joined.toStream().to('output')
    const text = builder.build().describe().toString()
    for (const name of [
      'fkj-subscription-registration-processor',
      'fkj-subscription-registration-sink (topic: fkj-subscription-registration-topic)',
      'fkj-subscription-registration-source (topics: [fkj-subscription-registration-topic])',
      'fkj-subscription-receive (stores: [fkj-subscription-store])',
      'fkj-subscription-join-foreign',
      'fkj-foreign-join-subscription',
      'fkj-subscription-response-sink (topic: fkj-subscription-response-topic)',
      'fkj-subscription-response-source',
      'fkj-subscription-response-resolver',
      'fkj-result'
    ]) {
      expect(text).to.contain(name)
    }
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    driver.createInputTopic('left', S, S).pipeInput('lhs1', 'r1|a', 2)
    expect(
      driver
        .createOutputTopic('output', S, S)
        .readRecordsToList()
        .map(rec => rec.value)
    ).to.deep.equal(['(r1|a,null)'])
    driver.close()
  })

  it('rejects an outer foreign-key join', () => {
    const builder = new StreamsBuilder()
    const l = builder.table('left', consumed)
    const r = builder.table('right', consumed)
    const outer = l.outerJoin as unknown as (...args: unknown[]) => unknown
    expect(() => outer.call(l, r, fk, joiner))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
  it('works with the default serdes only and hands the partitioners of TableJoined.with the keys', () => {
    const builder = new StreamsBuilder()
    const l = builder.table<string, string>('left')
    const r = builder.table<string, string>('right')
    const leftKeys: string[] = []
    const foreignKeys: string[] = []
    const tableJoined = TableJoined.with<string, string>(
      (_topic, key) => {
        leftKeys.push(key)
        return 0
      },
      (_topic, key) => {
        foreignKeys.push(key)
        return 0
      }
    )
    l.join(r, fk, joiner, tableJoined).toStream().to('output')
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    driver.createInputTopic('right', S, S).pipeInput('r1', 'rv1', 1)
    driver.createInputTopic('left', S, S).pipeInput('lhs1', 'r1|a', 2)
    expect(
      driver
        .createOutputTopic('output', S, S)
        .readRecordsToList()
        .map(rec => [rec.key, rec.value, rec.timestamp])
    ).to.deep.equal([['lhs1', '(r1|a,rv1)', 2]])
    expect(foreignKeys).to.deep.equal(['r1'])
    expect(leftKeys).to.deep.equal(['lhs1'])
    driver.close()
  })
  // KTableKTableForeignKeyInnerJoinCustomPartitionerIntegrationTest.shouldThrowIllegalArgumentExceptionWhenCustomPartitionerReturnsMultiplePartitions
  it('a TableJoined partitioner may return one partition (or a one-element set) but not multicast or drop: ILLEGAL_ARGUMENT', () => {
    const run = (tableJoined: TableJoined<string, string>): Array<string | null> => {
      const builder = new StreamsBuilder()
      builder.table<string, string>('left').join(builder.table<string, string>('right'), fk, joiner, tableJoined).toStream().to('output')
      const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
      try {
        driver.createInputTopic('right', S, S).pipeInput('r1', 'rv1', 1)
        driver.createInputTopic('left', S, S).pipeInput('lhs1', 'r1|a', 2)
        return driver.createOutputTopic('output', S, S).readValuesToList()
      } finally {
        driver.close()
      }
    }
    expect(
      run(
        TableJoined.with<string, string>(
          () => new Set([0]),
          () => [0]
        )
      )
    ).to.deep.equal(['(r1|a,rv1)'])
    const failure = (tableJoined: TableJoined<string, string>): unknown => {
      try {
        run(tableJoined)
      } catch (err) {
        return (err as { cause?: unknown }).cause ?? err
      }
      return undefined
    }
    for (const multi of [() => new Set([0, 1, 2]), () => new Set<number>()]) {
      const other = failure(TableJoined.with<string, string>(undefined, multi))
      expect(other).to.have.property('code', 'ILLEGAL_ARGUMENT')
      expect((other as Error).message).to.include('foreign-key join')
      expect(failure(TableJoined.with<string, string>(multi, undefined))).to.have.property('code', 'ILLEGAL_ARGUMENT')
    }
  })

  it('types the foreign-key join arguments', () => {
    const builder = new StreamsBuilder()
    const l = builder.table('left', Consumed.with(S, Serdes.Integer()))
    const r = builder.table('right', consumed)
    const inner: KTable<string, number> = l.join(
      r,
      v => String(v),
      (v, rv) => v + rv.length
    )
    // an extractor of (key, value) needs its parameter types (as mapValues with a key)
    const left: KTable<string, number> = l.leftJoin(
      r,
      (k: string, v: number) => k + String(v),
      (v, rv) => v + (rv?.length ?? 0)
    )
    // @ts-expect-error the right value of a left join may be null
    l.leftJoin(
      r,
      v => String(v),
      (v: number, rv: string) => v + rv.length
    )
    // @ts-expect-error the extractor must return the right table's key type
    l.join(
      r,
      v => v,
      (v, rv) => v + rv.length
    )
    expect([inner, left].every(t => t.name.startsWith('KTABLE-FK-JOIN-OUTPUT-'))).to.equal(true)
  })
  it('serializes with exactly the topics and pseudo topics Kafka Streams uses (shouldUseExpectedTopicsWithSerde)', () => {
    const seen = new Set<string>()
    const recording = <T>(serde: Serde<T>, isKey: boolean): Serde<T> => {
      const note = (topic: string): void => {
        seen.add(`${topic}--${isKey ? 'key' : 'value'}`)
      }
      return {
        serializer: () => ({
          serialize: (topic, data, headers) => {
            note(topic)
            return serde.serializer().serialize(topic, data, headers)
          }
        }),
        deserializer: () => ({
          deserialize: (topic, data, headers) => {
            note(topic)
            return serde.deserializer().deserialize(topic, data, headers)
          }
        })
      }
    }
    const I = Serdes.Integer()
    const builder = new StreamsBuilder()
    const left = builder.table('left_table', Consumed.with(recording(I, true), recording(S, false)))
    const right = builder.table('right_table', Consumed.with(recording(I, true), recording(S, false)))
    left
      .join(
        right,
        v => Number(v.split('|')[1]),
        (a, b) => `(${a},${b})`,
        Materialized.with<number, string>(undefined, recording(S, false))
      )
      .toStream()
      .to('output-topic', Produced.with(I, S))
    const appId = 'ktable-ktable-joinOnForeignKey'
    const driver = new TopologyTestDriver(builder.build(), { applicationId: appId })
    driver.createInputTopic('left_table', I, S).pipeInput(2, 'lhsValue1|1')
    driver.createInputTopic('right_table', I, S).pipeInput(1, 'rhsValue1')
    expect(driver.createOutputTopic('output-topic', I, S).readKeyValuesToMap()).to.deep.equal(new Map([[2, '(lhsValue1|1,rhsValue1)']]))
    driver.close()
    expect([...seen].filter(t => t.includes('FK-JOIN')).sort()).to.deep.equal([
      `${appId}-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic--key`,
      `${appId}-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic-fk--key`,
      `${appId}-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic-pk--key`,
      `${appId}-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic-vh--value`,
      `${appId}-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic--key`,
      `${appId}-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic--value`
    ])
  })

  it('a primary-key join reads a foreign-key join result through its store (shouldWorkWithDefaultSerdes)', () => {
    const I = Serdes.Integer()
    const builder = new StreamsBuilder()
    const a = builder.table<number, string>('A')
    const b = builder.table<number, string>('B')
    const fkResult = a.join(
      b,
      v => Number(v.split('-')[0]),
      (x, y) => `(${x},${y})`,
      Materialized.as<number, string>('asdf')
    )
    a.join(fkResult, (x, y) => `(${x},${y})`)
      .toStream()
      .to('output')
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: S })
    driver.createInputTopic('A', I, S).pipeInput(1, '999-alpha')
    driver.createInputTopic('B', I, S).pipeInput(999, 'beta')
    expect(driver.createOutputTopic('output', I, S).readKeyValuesToMap()).to.deep.equal(new Map([[1, '(999-alpha,(999-alpha,beta))']]))
    driver.close()
  })
})
