import { expect } from 'chai'
import { KafkaStreams, type KafkaStreamsState } from '@kstreams/core'
import { buildWordCountTopology, splitWords } from '@kstreams/example-wordcount/topology'
import { bootstrapServers, createTopics, produce, readUntil, tempDir, unique, waitFor, testClient } from './helpers.js'

describe('WordCount on a real broker: one instance', function () {
  this.timeout(120000)

  it('counts every word of the input, writes its changelog, and closes cleanly', async () => {
    const prefix = unique('wc1') + '-'
    const topics = { input: `${prefix}input`, words: `${prefix}words`, output: `${prefix}output` }
    await createTopics([
      { topic: topics.input, numPartitions: 2 },
      { topic: topics.words, numPartitions: 2 },
      { topic: topics.output, numPartitions: 2 }
    ])
    const state = await tempDir('kstreams-it')
    const lines = ['hello kafka streams', 'all streams lead to kafka', 'join kafka summit']
    const expected = new Map<string, number>()
    for (const line of lines) for (const w of splitWords(line)) expected.set(w, (expected.get(w) ?? 0) + 1)
    const streams = new KafkaStreams(
      buildWordCountTopology(topics, 'in-memory'),
      {
        applicationId: `${prefix}app`,
        bootstrapServers: bootstrapServers(),
        stateDir: state.path,
        commitIntervalMs: 200
      },
      { client: testClient() }
    )
    const states: KafkaStreamsState[] = []
    streams.setStateListener(to => states.push(to))
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await produce(
        topics.input,
        lines.map((value, i) => ({ key: String(i), value }))
      )
      const totalWords = [...expected.values()].reduce((a, b) => a + b, 0)
      const out = await readUntil(
        topics.output,
        (k, v) => [k!.toString(), Number(v!.readBigInt64BE())] as const,
        r => r.length >= totalWords,
        60000
      )
      const last = new Map<string, number>()
      for (const [w, c] of out) last.set(w, c)
      expect(Object.fromEntries(last)).to.deep.equal(Object.fromEntries(expected))
      const changelog = await readUntil(
        `${prefix}app-Counts-changelog`,
        (k, v) => [k!.toString(), Number(v!.readBigInt64BE())] as const,
        r => r.length >= totalWords,
        30000
      )
      expect(changelog.length).to.equal(totalWords)
    } finally {
      await streams.close()
      await state.remove()
    }
    expect(states[0]).to.equal('REBALANCING')
    expect(states).to.include('RUNNING')
    expect(states.at(-1)).to.equal('NOT_RUNNING')
  })
})
