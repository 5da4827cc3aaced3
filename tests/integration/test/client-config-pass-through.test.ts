/**
 * Kafka client and topic configs passed through the StreamsConfig take effect on a real broker:
 * `topic` configs land on the changelog and repartition topics kstreams creates (read back with
 * DescribeConfigs), windowstoreChangelogAdditionalRetentionMs sets a window store changelog's
 * retention.ms, and `producer: { 'compression.type': 'gzip' }` compresses what the application
 * produces: records of 50 KB go into an output topic whose max.message.bytes is 10 KB, which the
 * broker refuses uncompressed. The consumers run with a small max.poll.records. The committed
 * records of the repartition topic are purged (repartitionPurgeIntervalMs), and the thread logs
 * its summary line (logSummaryIntervalMs).
 */
import { expect } from 'chai'
import { ConfigResourceTypes } from 'kafkajs'
import { KafkaStreams, Serdes, type LogFn, type Logger, type StreamsConfig } from '@kstreams/core'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder, TimeWindows } from '@kstreams/dsl'
import { bootstrapServers, createTopics, produce, readUntil, tempDir, testClient, unique, waitFor, withAdmin } from './helpers.js'

const S = Serdes.String()

async function topicConfigs(topics: readonly string[]): Promise<Map<string, Record<string, string>>> {
  const described = await withAdmin(
    async admin =>
      await admin.describeConfigs({ resources: topics.map(name => ({ type: ConfigResourceTypes.TOPIC, name })), includeSynonyms: false })
  )
  return new Map(
    described.resources.map(r => [r.resourceName, Object.fromEntries(r.configEntries.map(e => [e.configName, e.configValue]))])
  )
}

describe('client and topic config pass-through on a real broker', function () {
  this.timeout(180000)

  it('topic configs on the internal topics, the windowed changelog retention, gzip-compressed output, a small max.poll.records', async () => {
    const prefix = unique('passthrough')
    const [input, output] = [`${prefix}-in`, `${prefix}-out`]
    await createTopics([{ topic: input, numPartitions: 2 }])
    await createTopics([{ topic: output, numPartitions: 1 }], { configs: { 'max.message.bytes': '10000' } })
    const applicationId = `${prefix}-app`
    const builder = new StreamsBuilder()
    const stream = builder.stream(input, Consumed.with(S, S))
    // 50 000 characters of one letter: far above the output topic's 10 000 bytes, a few hundred bytes gzipped.
    stream.mapValues(v => v.repeat(50_000)).to(output, Produced.with(S, S))
    stream.groupBy((_k, v) => v, Grouped.with(S, S)).count(Materialized.as('counts'))
    stream.groupByKey(Grouped.with(S, S)).windowedBy(TimeWindows.ofSizeWithNoGrace(60_000)).count(Materialized.as('window-counts'))
    const dir = await tempDir('kstreams-passthrough')
    const config: StreamsConfig = {
      applicationId,
      bootstrapServers: bootstrapServers(),
      stateDir: dir.path,
      commitIntervalMs: 200,
      windowstoreChangelogAdditionalRetentionMs: 3_600_000,
      topic: { 'max.message.bytes': 2_000_000, 'min.compaction.lag.ms': '5000' },
      producer: { 'compression.type': 'gzip', 'linger.ms': 5 },
      consumer: { 'max.poll.records': 7 },
      repartitionPurgeIntervalMs: 100,
      logSummaryIntervalMs: 300
    }
    // A logger without child(): the thread's bindings come through core's childLogger.
    const lines: Array<{ fields: Record<string, unknown> | undefined; message: string }> = []
    const record = ((first: Record<string, unknown> | string, message?: string) =>
      lines.push(typeof first === 'string' ? { fields: undefined, message: first } : { fields: first, message: message ?? '' })) as LogFn
    const logger: Logger = { debug: record, info: record, warn: record, error: record }
    const streams = new KafkaStreams(builder.build(), config, { client: testClient(), logger })
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      const letters = 'abcde'
      await produce(
        input,
        Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, value: letters[i % letters.length]! }))
      )
      const out = await readUntil(
        output,
        (_k, v) => v?.length ?? 0,
        records => records.length >= 40,
        90000
      )
      expect(out).to.have.length(40)
      expect(out.every(length => length === 50_000)).to.equal(true)

      const internal = (await withAdmin(async admin => await admin.listTopics())).filter(t => t.startsWith(`${applicationId}-`)).sort()
      const repartition = internal.filter(t => t.endsWith('-repartition'))
      expect(repartition).to.have.length(1)
      const counts = `${applicationId}-counts-changelog`
      const windowCounts = `${applicationId}-window-counts-changelog`
      expect(internal).to.include.members([counts, windowCounts])
      const configs = await topicConfigs([counts, windowCounts, repartition[0]!])
      // `topic` configs on every internal topic, over the kind's defaults and under its own.
      for (const topic of [counts, windowCounts, repartition[0]!]) {
        expect(configs.get(topic)?.['max.message.bytes'], topic).to.equal('2000000')
        expect(configs.get(topic)?.['min.compaction.lag.ms'], topic).to.equal('5000')
      }
      expect(configs.get(counts)?.['cleanup.policy']).to.equal('compact')
      expect(configs.get(repartition[0]!)?.['cleanup.policy']).to.equal('delete')
      expect(configs.get(windowCounts)?.['cleanup.policy']).to.equal('compact,delete')
      // The window store keeps size + grace = 60 s; its changelog that plus the additional hour.
      expect(configs.get(windowCounts)?.['retention.ms']).to.equal(String(60_000 + 3_600_000))

      // The repartition records the tasks committed are deleted.
      await withAdmin(async admin => {
        await waitFor(
          'the repartition topic purged',
          async () => (await admin.fetchTopicOffsets(repartition[0]!)).some(p => Number(p.low) > 0),
          30000
        )
      })
      const summary = /processed \d+ total records and committed \d+ total tasks/
      await waitFor('a summary line', () => lines.some(l => summary.test(l.message)), 10000)
      expect(lines.find(l => summary.test(l.message))?.fields?.thread).to.match(/StreamThread-1$/)
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})
