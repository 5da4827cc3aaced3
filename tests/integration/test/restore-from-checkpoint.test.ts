import { expect } from 'chai'
import { rm } from 'node:fs/promises'
import { createTopics, produce, tempDir, unique, waitFor } from './helpers.js'
import { OutputCollector, WordCountInstance, addCounts, makeLines, waitForInstances, type InstanceEvent } from './wordcount-instances.js'

interface RestoreStart {
  partition: number
  start: number
  end: number
}

const starts = (events: InstanceEvent[]): RestoreStart[] =>
  events
    .filter(e => e.event === 'restore-start')
    .map(e => ({ partition: e.partition as number, start: e.start as number, end: e.end as number }))

/**
 * One WordCount instance (RocksDB store) restarted on the same state directory: after a crash it
 * restores only the changelog tail past its checkpoint; with the state directory deleted it
 * restores the whole changelog.
 */
describe('Restore on restart of a single instance (RocksDB store, real broker)', function () {
  this.timeout(240000)

  it('restores from the checkpoint (only the tail), and everything after the state dir is deleted', async () => {
    const prefix = unique('ckpt') + '-'
    await createTopics(['input', 'words', 'output'].map(t => ({ topic: `${prefix}wordcount-${t}`, numPartitions: 2 })))
    const dir = await tempDir('kstreams-ckpt')
    const env = {
      WORDCOUNT_APP_ID: `${prefix}app`,
      WORDCOUNT_TOPIC_PREFIX: prefix,
      WORDCOUNT_STATE_DIR: dir.path,
      WORDCOUNT_COMMIT_INTERVAL_MS: '200',
      WORDCOUNT_SESSION_TIMEOUT_MS: '6000'
    }
    const output = await OutputCollector.start(`${prefix}wordcount-output`)
    const expected = new Map<string, number>()
    const feed = async (lines: number): Promise<void> => {
      const batch = makeLines(lines)
      addCounts(expected, batch.counts)
      await produce(
        `${prefix}wordcount-input`,
        batch.lines.map((value, i) => ({ key: String(i), value }))
      )
      await waitFor('all words counted', () => [...expected].every(([w, c]) => (output.last.get(w) ?? 0) >= c), 90000)
    }
    const running = async (instance: WordCountInstance): Promise<void> =>
      waitForInstances('RUNNING', [instance], () => instance.state === 'RUNNING', 90000)
    const instances: WordCountInstance[] = []
    try {
      // 1: count, then stop gracefully: the checkpoint holds the end of the changelog.
      const first = new WordCountInstance(env)
      instances.push(first)
      await running(first)
      await feed(600)
      first.kill('SIGTERM')
      expect(await first.exited).to.equal(0)

      // 2: restarts from the checkpoint with nothing to restore, counts more, then crashes (no new checkpoint).
      const second = new WordCountInstance(env)
      instances.push(second)
      await running(second)
      const afterClean = starts(second.events)
      expect(afterClean.length).to.equal(2)
      for (const s of afterClean) {
        expect(s.start, 'restore starts at the checkpoint, not at 0').to.be.greaterThan(0)
        expect(s.end - s.start, 'nothing to restore after a clean stop').to.equal(0)
      }
      await feed(600)
      second.kill('SIGKILL')
      await second.exited

      // 3: restores only the tail written by the crashed run.
      const third = new WordCountInstance(env)
      instances.push(third)
      await running(third)
      const tail = starts(third.events)
      expect(tail.length).to.equal(2)
      for (const s of tail) {
        const checkpointed = afterClean.find(a => a.partition === s.partition)!
        expect(s.start, 'from the checkpoint of run 1').to.equal(checkpointed.start)
        expect(s.end).to.be.greaterThan(s.start)
      }
      await feed(100)
      for (const [word, count] of expected) expect(output.last.get(word), word).to.be.at.least(count)
      third.kill('SIGTERM')
      await third.exited

      // 4: without a state directory everything is restored from offset 0.
      await rm(dir.path, { recursive: true, force: true })
      const fourth = new WordCountInstance(env)
      instances.push(fourth)
      await running(fourth)
      const full = starts(fourth.events)
      expect(full.length).to.equal(2)
      for (const s of full) {
        expect(s.start).to.equal(0)
        expect(s.end).to.be.greaterThan(tail.find(t => t.partition === s.partition)!.end - 1)
      }
      const restored = fourth.restoreEvents('restore-end').reduce((n, e) => n + (e.total as number), 0)
      expect(restored).to.equal(full.reduce((n, s) => n + s.end - s.start, 0))
    } finally {
      for (const i of instances) i.kill('SIGKILL')
      await Promise.all(instances.map(i => i.exited))
      await output.stop()
      await dir.remove()
    }
  })
})
