/**
 * kstreams and Java Kafka Streams 4.1.1 read each other's rebalance userData and number the
 * same topology the same way: Kafka Streams' own SubscriptionInfo / AssignmentInfo encoders and
 * decoders (tests/java-streams WireFormats) against kstreams', and `describe()` of the topologies
 * the mixed-group tests run, printed by Kafka Streams, against kstreams'.
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import { decodeAssignmentInfo, decodeSubscriptionInfo, encodeAssignmentInfo, encodeSubscriptionInfo } from '@kstreams/core/internal'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder, TimeWindows } from '@kstreams/dsl'
import { buildDslWordCountTopology } from '@kstreams/example-wordcount/dsl-topology'
import { splitWords } from '@kstreams/example-wordcount/topology'
import { runJava } from './java-streams.js'

const S = Serdes.String()

function fields(output: string): Record<string, string> {
  return Object.fromEntries(
    output
      .trim()
      .split('\n')
      .map(line => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
  )
}

function kstreamsTopology(name: string) {
  const input = 'wordcount-input'
  const output = 'wordcount-output'
  if (name === 'wordcount') return buildDslWordCountTopology({ input, output })
  const builder = new StreamsBuilder()
  if (name === 'windowed') {
    builder
      .stream(input, Consumed.with(S, S))
      .flatMapValues(line => splitWords(line))
      .groupBy((_key, word) => word, Grouped.with(S, S))
      .windowedBy(TimeWindows.ofSizeAndGrace(5 * 60_000, 24 * 3600_000))
      .count(Materialized.as('WindowedCounts'))
      .toStream((windowed, _count) => `${windowed.key}@${windowed.window.start}`)
      .to(output, Produced.with(S, Serdes.Long()))
  } else {
    const table = builder.table('wordcount-table', Consumed.with(S, S), Materialized.as('Table'))
    builder
      .stream(input, Consumed.with(S, S))
      .join(table, (line: string, value: string) => `${line}|${value}`)
      .to(output, Produced.with(S, S))
  }
  return builder.build()
}

describe('Wire compatibility with Java Kafka Streams 4.1.1', function () {
  this.timeout(300_000)

  it("Kafka Streams reads kstreams' subscription (version 11) field by field", async () => {
    const bytes = encodeSubscriptionInfo({
      processId: '7b0c1d2e-3f40-4152-8364-758697a8b9ca',
      userEndpoint: 'kstreams-host:8080',
      taskOffsetSums: new Map([
        ['0_0', -2],
        ['1_3', 1234567],
        ['1_10', -3]
      ]),
      errorCode: 0,
      uniqueField: 3,
      clientTags: new Map([['zone', 'eu-west-1a']])
    })
    const java = fields(await runJava('WireFormats', ['decode-subscription', bytes.toString('hex')]))
    expect(java).to.deep.equal({
      version: '11',
      latestSupportedVersion: '11',
      processId: '7b0c1d2e-3f40-4152-8364-758697a8b9ca',
      userEndPoint: 'kstreams-host:8080',
      taskOffsetSums: '{0_0=-2, 1_3=1234567, 1_10=-3}',
      prevTasks: '[0_0]',
      standbyTasks: '[1_3, 1_10]',
      errorCode: '0',
      clientTags: '{zone=eu-west-1a}'
    })
  })

  it("kstreams reads Kafka Streams' subscription and assignment", async () => {
    const subscription = decodeSubscriptionInfo(Buffer.from((await runJava('WireFormats', ['encode-subscription'])).trim(), 'hex'))
    expect(subscription).to.deep.include({
      version: 11,
      latestSupportedVersion: 11,
      processId: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
      userEndpoint: 'h:1',
      activeTasks: ['1_0'],
      standbyTasks: ['0_1', '2_12'],
      uniqueField: 7
    })
    const userData = Buffer.from((await runJava('WireFormats', ['encode-assignment'])).trim(), 'hex')
    const assignment = decodeAssignmentInfo({
      partitions: [
        { topic: 'b', partition: 1 },
        { topic: 'a', partition: 1 }
      ],
      userData
    })
    expect([...assignment.activeTasks]).to.deep.equal([
      [
        '0_1',
        [
          { topic: 'a', partition: 1 },
          { topic: 'b', partition: 1 }
        ]
      ]
    ])
    expect([...assignment.standbyTasks]).to.deep.equal([['1_1', [{ topic: 'c', partition: 1 }]]])
    expect([...assignment.partitionsByHost]).to.deep.equal([['h:1', [{ topic: 'a', partition: 1 }]]])
    expect(assignment.nextRebalanceMs).to.equal(1000)
  })

  it("Kafka Streams reads kstreams' assignment: tasks paired with sorted partitions, standbys, host maps, probing time", async () => {
    const tp = (topic: string, partition: number) => ({ topic, partition })
    const bytes = encodeAssignmentInfo({
      errorCode: 0,
      errorMessage: '',
      nextRebalanceMs: 1_700_000_000_000,
      activeTasks: new Map([
        ['1_2', [tp('app-Counts-repartition', 2)]],
        ['0_2', [tp('input', 2)]]
      ]),
      standbyTasks: new Map([['1_0', [tp('app-Counts-repartition', 0)]]]),
      partitionsByHost: new Map([
        ['one:8080', [tp('input', 2), tp('app-Counts-repartition', 2)]],
        ['two:8080', [tp('input', 0)]]
      ]),
      standbyPartitionsByHost: new Map([['one:8080', [tp('app-Counts-repartition', 0)]]])
    })
    expect(fields(await runJava('WireFormats', ['decode-assignment', bytes.toString('hex')]))).to.deep.equal({
      version: '11',
      commonlySupportedVersion: '11',
      activeTasks: '[1_2, 0_2]',
      standbyTasks: '{1_0=[app-Counts-repartition-0]}',
      partitionsByHost: '{one:8080=[app-Counts-repartition-2, input-2], two:8080=[input-0]}',
      standbyPartitionsByHost: '{one:8080=[app-Counts-repartition-0]}',
      errorCode: '0',
      nextRebalanceMs: '1700000000000'
    })
  })

  for (const name of ['wordcount', 'windowed', 'join']) {
    it(`describe() of the ${name} topology equals Kafka Streams' (same sub-topologies, nodes, stores and internal topics)`, async () => {
      const java = await runJava('JavaStreamsApp', ['describe'], { JAVA_TOPOLOGY: name })
      expect(kstreamsTopology(name).describe().toString().trim()).to.equal(java.trim())
    })
  }
})
