/**
 * Records a handler skips are consumed: with a deserialization error answered CONTINUE and a
 * negative timestamp dropped at the tail of a partition, the group's committed offset still
 * reaches the partition's end (lag 0), and a restarted instance does not read them again.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, Serdes, Topology, logAndSkipOnInvalidTimestamp } from '@kstreams/core'
import type { Deserializer } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'
import { FAST } from './streams-harness.js'

const S = Serdes.String()
const picky: Deserializer<string> = {
  deserialize: (topic, data) => {
    const s = S.deserializer().deserialize(topic, data)
    if (s === 'bad') throw new Error('cannot read it')
    return s
  }
}

describe('KafkaStreams on the in-memory Kafka: offsets of skipped records', function () {
  this.timeout(20_000)

  it('undeserializable and negative-timestamp records at the tail are committed past: lag 0, not read again after a restart', async () => {
    const kafka = new InMemoryKafka()
    const dir = await mkdtemp(join(tmpdir(), 'kstreams-skipped-offsets-'))
    kafka.createTopic('in', 1)
    kafka.createTopic('out', 1)
    const applicationId = `skipped-offsets-${process.pid}`
    const topology = (): Topology =>
      new Topology()
        .addSource('in', 'in', { keyDeserializer: S, valueDeserializer: picky })
        .addSink('out', 'out', { keySerializer: S, valueSerializer: S }, 'in')
    const config = {
      ...FAST,
      applicationId,
      stateDir: dir,
      deserializationExceptionHandler: 'logAndContinue' as const,
      defaultTimestampExtractor: logAndSkipOnInvalidTimestamp
    }
    const committed = (): number => kafka.group(applicationId)?.committed.get('in-0')?.offset ?? -1
    const dropped = (streams: KafkaStreams): number =>
      streams
        .metrics()
        .filter(m => m.name === 'dropped-records-total')
        .reduce((n, m) => n + Number(m.value), 0)
    try {
      kafka.produce('in', [
        ...['a', 'b', 'c'].map(value => ({ key: 'k', value })),
        { key: 'k', value: 'bad' },
        { key: 'k', value: 'late', timestamp: -5 },
        { key: 'k', value: 'bad' }
      ])
      const first = new KafkaStreams(topology(), config, { client: kafka.client() })
      await first.start()
      try {
        await eventually(() => committed() === 6, 10_000)
        expect(
          kafka
            .topic('out')
            .records(0)
            .map(r => r.value!.toString())
        ).to.deep.equal(['a', 'b', 'c'])
        expect(dropped(first)).to.equal(3)
      } finally {
        await first.close()
      }
      const second = new KafkaStreams(topology(), config, { client: kafka.client() })
      await second.start()
      try {
        kafka.produce('in', { key: 'k', value: 'd' })
        await eventually(() => committed() === 7, 10_000)
        expect(dropped(second)).to.equal(0)
      } finally {
        await second.close()
      }
    } finally {
      kafka.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
