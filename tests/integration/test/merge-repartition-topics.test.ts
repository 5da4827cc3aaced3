/**
 * topologyOptimization 'merge.repartition.topics' on a real broker: two aggregations and a
 * toTable() after one map() read a single repartition topic (the first one's name, the only
 * internal repartition topic created), and every count and sum is exact.
 */
import { expect } from 'chai'
import { KafkaStreams, KeyValue, Serdes } from '@kstreams/core'
import { Consumed, Grouped, Materialized, Named, Produced, StreamsBuilder } from '@kstreams/dsl'
import { bootstrapServers, createTopics, kafka, produce, readUntil, tempDir, testClient, unique, waitFor } from './helpers.js'

const S = Serdes.String()

describe('merge.repartition.topics on a real broker', function () {
  this.timeout(180000)

  it('one repartition topic feeds a count, an aggregate and a table; the results are exact', async () => {
    const prefix = unique('mergerep')
    const [input, counts, sums, latest] = [`${prefix}-in`, `${prefix}-counts`, `${prefix}-sums`, `${prefix}-latest`]
    await createTopics([
      { topic: input, numPartitions: 3 },
      { topic: counts, numPartitions: 1 },
      { topic: sums, numPartitions: 1 },
      { topic: latest, numPartitions: 1 }
    ])
    const builder = new StreamsBuilder()
    // key "user-<n>" -> "group-<n % 5>"; value: a number as text
    const regrouped = builder
      .stream(input, Consumed.with(S, S))
      .map((k, v) => KeyValue.pair(`group-${Number(k.split('-')[1]) % 5}`, v), Named.as('regroup'))
    regrouped
      .groupByKey(Grouped.with(S, S).withName('by-group'))
      .count(Materialized.as<string, number>('count-store').withKeySerde(S).withValueSerde(Serdes.Long()))
      .toStream()
      .to(counts, Produced.with(S, Serdes.Long()))
    regrouped
      .groupByKey(Grouped.with(S, S).withName('sum-by-group'))
      .aggregate(
        () => 0,
        (_k, v, sum) => sum + Number(v),
        Materialized.with<string, number>(S, Serdes.Integer())
      )
      .toStream()
      .to(sums, Produced.with(S, Serdes.Integer()))
    regrouped.toTable(Materialized.with<string, string>(S, S)).toStream().to(latest, Produced.with(S, S))
    const topology = builder.build({ topologyOptimization: 'merge.repartition.topics' })
    expect(
      topology
        .describe()
        .toString()
        .match(/Sink: .*-repartition/g)
    ).to.deep.equal(['Sink: by-group-repartition-sink (topic: by-group-repartition'])

    const dir = await tempDir('kstreams-mergerep')
    const streams = new KafkaStreams(
      topology,
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      // 200 records of 40 users: per group 40 records; values 0..199, group g sums the values i with i % 5 == g
      await produce(
        input,
        Array.from({ length: 200 }, (_, i) => ({ key: `user-${i % 40}`, value: String(i) }))
      )
      const expectedSums = new Map(
        [0, 1, 2, 3, 4].map(g => [
          `group-${g}`,
          Array.from({ length: 200 }, (_, i) => i)
            .filter(i => i % 5 === g)
            .reduce((a, b) => a + b, 0)
        ])
      )
      const lastBy = <T>(records: Array<{ key: string; value: T }>): Map<string, T> => new Map(records.map(r => [r.key, r.value]))
      const countRecords = await readUntil(
        counts,
        (k, v) => ({ key: k!.toString(), value: Number(v!.readBigInt64BE()) }),
        r => [...lastBy(r).values()].filter(n => n === 40).length === 5,
        60000
      )
      expect(lastBy(countRecords)).to.deep.equal(new Map([0, 1, 2, 3, 4].map(g => [`group-${g}`, 40])))
      const sumRecords = await readUntil(
        sums,
        (k, v) => ({ key: k!.toString(), value: v!.readInt32BE() }),
        r => [...expectedSums].every(([g, s]) => lastBy(r).get(g) === s),
        60000
      )
      expect(lastBy(sumRecords)).to.deep.equal(expectedSums)
      // the last value of a group depends on how the three input partitions interleave: only its group is fixed
      const latestRecords = await readUntil(
        latest,
        (k, v) => ({ key: k!.toString(), value: v!.toString() }),
        r => lastBy(r).size === 5,
        60000
      )
      for (const [group, value] of lastBy(latestRecords)) expect(`group-${Number(value) % 5}`).to.equal(group)
      expect(latestRecords.length).to.be.at.most(200)

      const admin = kafka().admin()
      await admin.connect()
      const topics = await admin.listTopics()
      await admin.disconnect()
      expect(topics.filter(t => t.startsWith(`${prefix}-app-`) && t.endsWith('-repartition'))).to.deep.equal([
        `${prefix}-app-by-group-repartition`
      ])
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})
