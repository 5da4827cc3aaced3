import { expect } from 'chai'
import { createTopics, produce, tempDir, unique, waitFor } from './helpers.js'
import { OutputCollector, WordCountInstance, addCounts, makeLines, waitForInstances } from './wordcount-instances.js'

/**
 * Two WordCount instances share a 4-partition input; one is stopped mid-stream and the other
 * takes over its tasks, restoring their state from the changelog.
 */
describe('WordCount on a real broker: two instances, one stops mid-stream', function () {
  this.timeout(240000)

  async function run(
    stop: 'SIGKILL' | 'SIGTERM',
    api: 'processor' | 'dsl' = 'processor'
  ): Promise<{ expected: Map<string, number>; counted: Map<string, number>; survivor: WordCountInstance }> {
    const prefix = unique('wcf') + '-'
    await createTopics(['input', 'words', 'output'].map(t => ({ topic: `${prefix}wordcount-${t}`, numPartitions: 4 })))
    const dirs = [await tempDir('kstreams-a'), await tempDir('kstreams-b')]
    const env = (i: number): Record<string, string> => ({
      WORDCOUNT_APP_ID: `${prefix}app`,
      WORDCOUNT_TOPIC_PREFIX: prefix,
      WORDCOUNT_STATE_DIR: dirs[i]!.path,
      WORDCOUNT_COMMIT_INTERVAL_MS: '300',
      WORDCOUNT_SESSION_TIMEOUT_MS: '6000',
      WORDCOUNT_API: api
    })
    const a = new WordCountInstance(env(0))
    const b = new WordCountInstance(env(1))
    const output = await OutputCollector.start(`${prefix}wordcount-output`)
    const expected = new Map<string, number>()
    try {
      await waitForInstances('both instances RUNNING', [a, b], () => a.state === 'RUNNING' && b.state === 'RUNNING', 90000)
      const first = makeLines(1500)
      addCounts(expected, first.counts)
      await produce(
        `${prefix}wordcount-input`,
        first.lines.map((value, i) => ({ key: String(i), value }))
      )
      // The DSL's cache collapses updates between commits, so its output is counted differently.
      const firstHalfSeen =
        api === 'dsl' ? () => [...expected].every(([w, c]) => (output.last.get(w) ?? 0) >= c) : () => output.records > 1000
      await waitFor('output from the first half', firstHalfSeen, 60000)
      b.kill(stop)
      const second = makeLines(1500)
      addCounts(expected, second.counts)
      await produce(
        `${prefix}wordcount-input`,
        second.lines.map((value, i) => ({ key: String(i), value }))
      )
      const caughtUp = (): boolean => [...expected].every(([w, c]) => (output.last.get(w) ?? 0) >= c)
      await waitFor('the survivor to count everything', caughtUp, 120000).catch(err => {
        throw new Error(`${(err as Error).message}\nsurvivor stderr:\n${a.stderr.slice(-3000)}`)
      })
      // Let any re-counting settle, then read the final counts.
      await new Promise(resolve => setTimeout(resolve, 1500))
      return { expected, counted: new Map(output.last), survivor: a }
    } finally {
      a.kill('SIGTERM')
      b.kill('SIGKILL')
      await Promise.all([a.exited, b.exited])
      await output.stop()
      for (const d of dirs) await d.remove()
    }
  }

  it('after a SIGKILL no count ends below the true count, and the survivor restored the lost tasks', async () => {
    const { expected, counted, survivor } = await run('SIGKILL')
    for (const [word, count] of expected) expect(counted.get(word), word).to.be.at.least(count)
    expect(survivor.restoreEvents('restore-start').length).to.be.greaterThan(0)
  })

  it('after a graceful stop every count is exactly the true count', async () => {
    const { expected, counted } = await run('SIGTERM')
    expect(Object.fromEntries(counted)).to.deep.equal(Object.fromEntries(expected))
  })

  it('the DSL WordCount (repartition topic created by the runtime, cached store): after a SIGKILL no count ends below the true count', async () => {
    const { expected, counted, survivor } = await run('SIGKILL', 'dsl')
    for (const [word, count] of expected) expect(counted.get(word), word).to.be.at.least(count)
    expect(survivor.restoreEvents('restore-start').length).to.be.greaterThan(0)
  })

  it('a second instance joining mid-stream takes tasks over after the first committed them: counts stay exact', async () => {
    const prefix = unique('wcj') + '-'
    await createTopics(['input', 'words', 'output'].map(t => ({ topic: `${prefix}wordcount-${t}`, numPartitions: 4 })))
    const dirs = [await tempDir('kstreams-a'), await tempDir('kstreams-b')]
    const env = (i: number): Record<string, string> => ({
      WORDCOUNT_APP_ID: `${prefix}app`,
      WORDCOUNT_TOPIC_PREFIX: prefix,
      WORDCOUNT_STATE_DIR: dirs[i]!.path,
      WORDCOUNT_COMMIT_INTERVAL_MS: '30000',
      WORDCOUNT_SESSION_TIMEOUT_MS: '6000'
    })
    const output = await OutputCollector.start(`${prefix}wordcount-output`)
    const expected = new Map<string, number>()
    const a = new WordCountInstance(env(0))
    let b: WordCountInstance | undefined
    try {
      await waitForInstances('the first instance RUNNING', [a], () => a.state === 'RUNNING', 90000)
      const first = makeLines(1500)
      addCounts(expected, first.counts)
      await produce(
        `${prefix}wordcount-input`,
        first.lines.map((value, i) => ({ key: String(i), value }))
      )
      await waitFor('the first half counted', () => [...first.counts].every(([w, c]) => (output.last.get(w) ?? 0) >= c), 60000)
      // A long commit interval: only the revocation before the rebalance commits the first half.
      b = new WordCountInstance(env(1))
      await waitForInstances('both RUNNING after the rebalance', [a, b], () => a.state === 'RUNNING' && b!.state === 'RUNNING', 90000)
      const second = makeLines(1500)
      addCounts(expected, second.counts)
      await produce(
        `${prefix}wordcount-input`,
        second.lines.map((value, i) => ({ key: String(i), value }))
      )
      await waitFor('everything counted', () => [...expected].every(([w, c]) => (output.last.get(w) ?? 0) >= c), 90000)
      a.kill('SIGTERM')
      b.kill('SIGTERM')
      expect(await a.exited).to.equal(0)
      expect(await b.exited).to.equal(0)
      await new Promise(resolve => setTimeout(resolve, 1000))
      expect(Object.fromEntries(output.last)).to.deep.equal(Object.fromEntries(expected))
      expect(b.restoreEvents('restore-start').length, 'the joining instance restored the tasks it took over').to.be.greaterThan(0)
    } finally {
      a.kill('SIGKILL')
      b?.kill('SIGKILL')
      await Promise.all([a.exited, b?.exited])
      await output.stop()
      for (const d of dirs) await d.remove()
    }
  })
})
