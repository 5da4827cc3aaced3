import { expect } from 'chai'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTopics, produce, tempDir, unique, waitFor } from './helpers.js'
import { OutputCollector, WordCountInstance, addCounts, makeLines, waitForInstances } from './wordcount-instances.js'

interface Restore {
  partition: number
  start: number
  end: number
}

/**
 * Three WordCount instances with IN-MEMORY stores and one standby replica; one is SIGKILLed.
 * The survivors that take its tasks over recycle their standby tasks: the standby's open stores
 * become the active task's, and the restore reads only the changelog tail from the standby's
 * position (an in-memory store that was closed and reopened would restore from offset 0).
 */
describe('Failover to standby replicas of in-memory stores (three instances, real broker)', function () {
  this.timeout(300000)

  it('the new owners recycle their standbys, restore only the changelog tail, and the counts stay correct', async () => {
    const prefix = unique('sbmem') + '-'
    await createTopics(['input', 'words', 'output'].map(t => ({ topic: `${prefix}wordcount-${t}`, numPartitions: 6 })))
    const dirs = await Promise.all([0, 1, 2].map(async () => tempDir('kstreams-sbmem')))
    const instances = dirs.map(
      d =>
        new WordCountInstance({
          WORDCOUNT_APP_ID: `${prefix}app`,
          WORDCOUNT_TOPIC_PREFIX: prefix,
          WORDCOUNT_STATE_DIR: d.path,
          WORDCOUNT_COMMIT_INTERVAL_MS: '200',
          WORDCOUNT_SESSION_TIMEOUT_MS: '6000',
          WORDCOUNT_STANDBYS: '1',
          WORDCOUNT_STORE: 'in-memory',
          WORDCOUNT_LOG_LEVEL: 'info',
          // The changelogs here are small: with Kafka's default (10,000) every client would count as caught up.
          WORDCOUNT_ACCEPTABLE_RECOVERY_LAG: '100'
        })
    )
    const output = await OutputCollector.start(`${prefix}wordcount-output`)
    const expected = new Map<string, number>()
    try {
      await waitForInstances('three instances RUNNING', instances, () => instances.every(i => i.state === 'RUNNING'), 120000)
      const first = makeLines(3000)
      addCounts(expected, first.counts)
      await produce(
        `${prefix}wordcount-input`,
        first.lines.map((value, i) => ({ key: String(i), value }))
      )
      await waitFor('the first batch counted', () => [...expected].every(([w, c]) => (output.last.get(w) ?? 0) >= c), 90000)
      await new Promise(resolve => setTimeout(resolve, 2000)) // let standbys catch up
      const killedAt = Date.now()
      const survivors = instances.slice(1)
      const logLength = survivors.map(i => i.stderr.length)
      instances[0]!.kill('SIGKILL')
      const second = makeLines(300)
      addCounts(expected, second.counts)
      await produce(
        `${prefix}wordcount-input`,
        second.lines.map((value, i) => ({ key: String(i), value }))
      )
      await waitFor(
        'everything counted after the kill',
        () => [...expected].every(([w, c]) => (output.last.get(w) ?? 0) >= c),
        120000
      ).catch(async err => {
        const logs = await Promise.all(
          survivors.map(async (i, n) => {
            const path = join(tmpdir(), `${prefix}survivor-${n + 1}.log`)
            await writeFile(path, i.stderr + '\n' + i.events.map(e => JSON.stringify(e)).join('\n') + '\n')
            return path
          })
        )
        const short = [...expected]
          .filter(([w, c]) => (output.last.get(w) ?? 0) < c)
          .map(([w, c]) => `${w} ${output.last.get(w) ?? 0}/${c}`)
        throw new Error(`${(err as Error).message}\nbelow the true count: ${short.join(', ')}\nsurvivor logs: ${logs.join(', ')}`)
      })
      for (const [word, count] of expected) expect(output.last.get(word), word).to.be.at.least(count)

      // Restores of the survivors after the kill, of tasks whose changelog is not empty.
      const taken = survivors.flatMap((instance, n) =>
        instance.events
          .filter(e => e.event === 'restore-start' && (e.t as number) >= killedAt && (e.end as number) > 0)
          .map(e => ({
            survivor: n,
            restore: { partition: e.partition as number, start: e.start as number, end: e.end as number } as Restore
          }))
      )
      expect(taken.length, 'tasks moved to survivors').to.be.greaterThan(0)
      for (const { survivor, restore: r } of taken) {
        expect(r.start, `partition ${r.partition} restored from the standby's position`).to.be.greaterThan(0)
        expect(r.end - r.start, `partition ${r.partition} restored only the tail`).to.be.lessThan(r.end / 2)
        const log = survivors[survivor]!.stderr.slice(logLength[survivor])
        expect(log, `survivor ${survivor + 1} recycled the standby of partition ${r.partition}`).to.match(
          new RegExp(`Standby task \\d+_${r.partition} recycled into an active task`)
        )
      }
      console.log(
        `      restored after the kill: ${taken.map(t => `p${t.restore.partition} ${t.restore.start}..${t.restore.end}`).join(', ')}`
      )
    } finally {
      for (const i of instances) i.kill('SIGKILL')
      await Promise.all(instances.map(i => i.exited))
      await output.stop()
      for (const d of dirs) await d.remove()
    }
  })
})
