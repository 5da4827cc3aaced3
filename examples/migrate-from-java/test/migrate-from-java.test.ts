/**
 * The kstreams WordCount is the Java WordCountDemo: its description is the one Kafka Streams
 * 4.1.1 prints for the Java code (the same sub-topologies, node names, store and topics, hence
 * the same task ids and internal topics), and it counts the same. The live mixed group (Java and
 * kstreams instances in one group, both leaders, SIGKILL, hand-over, rolling migration) is tested
 * on a broker in tests/integration/test/java-mixed-group.test.ts.
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { buildWordCount, STORE } from '../src/topology.js'

/** `topology.describe()` of the Java application, printed by Kafka Streams 4.1.1. */
const JAVA_DESCRIPTION = `Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [lines])
      --> KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])
      --> KSTREAM-KEY-SELECT-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])
      --> Counts-repartition-filter
      <-- KSTREAM-FLATMAPVALUES-0000000001
    Processor: Counts-repartition-filter (stores: [])
      --> Counts-repartition-sink
      <-- KSTREAM-KEY-SELECT-0000000002
    Sink: Counts-repartition-sink (topic: Counts-repartition)
      <-- Counts-repartition-filter

  Sub-topology: 1
    Source: Counts-repartition-source (topics: [Counts-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [Counts])
      --> KTABLE-TOSTREAM-0000000007
      <-- Counts-repartition-source
    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])
      --> KSTREAM-SINK-0000000008
      <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000008 (topic: counts)
      <-- KTABLE-TOSTREAM-0000000007`

describe('Migrating the Java WordCountDemo to kstreams', () => {
  it('describes itself exactly as Kafka Streams describes the Java application', () => {
    expect(buildWordCount({ input: 'lines', output: 'counts' }).describe().toString().trim()).to.equal(JAVA_DESCRIPTION)
  })

  it('counts words as the Java application does, with Long values in big-endian bytes as Java writes them', async () => {
    const driver = await TopologyTestDriver.create(buildWordCount({ input: 'lines', output: 'counts' }), { applicationId: 'wordcount' })
    try {
      const input = driver.createInputTopic('lines', Serdes.String(), Serdes.String())
      input.pipeInput('1', 'Hello Kafka Streams')
      input.pipeInput('2', 'All streams lead to Kafka, don’t they?')
      const raw = driver.createOutputTopic('counts', Serdes.String(), Serdes.ByteArray()).readKeyValuesToMap()
      expect(Buffer.from(raw.get('kafka')!).toString('hex')).to.equal('0000000000000002')
      const counts = driver.getKeyValueStore<string, number>(STORE)!
      expect(
        Object.fromEntries(['hello', 'kafka', 'streams', 'all', 'lead', 'to', 'don', 't', 'they'].map(w => [w, counts.get(w)]))
      ).to.deep.equal({
        hello: 1,
        kafka: 2,
        streams: 2,
        all: 1,
        lead: 1,
        to: 1,
        don: 1,
        t: 1,
        they: 1
      })
    } finally {
      driver.close()
    }
  })
})
