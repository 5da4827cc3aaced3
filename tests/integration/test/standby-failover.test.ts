import { expect } from 'chai'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTopics, produce, tempDir, unique, waitFor } from './helpers.js'
import { OutputCollector, WordCountInstance, addCounts, makeLines, waitForInstances, type InstanceEvent } from './wordcount-instances.js'

interface Restore {
  partition: number
  start: number
  end: number
}
const restores = (events: InstanceEvent[], after: number): Restore[] =>
  events
    .filter(e => e.event === 'restore-start' && (e.t as number) >= after)
    .map(e => ({ partition: e.partition as number, start: e.start as number, end: e.end as number }))

/**
 * Three WordCount instances (RocksDB stores); one is SIGKILLed. With a standby replica the new
 * owner restores at most the tail of the changelog; without, the whole changelog.
 */
describe('Failover with and without standby replicas (three instances, real broker)', function () {
  this.timeout(300000)

  async function scenario(standbys: number): Promise<{ restored: Restore[]; failoverMs: number; firstOutputMs: number }> {
    const prefix = unique(`sb${standbys}`) + '-'
    await createTopics(['input', 'words', 'output'].map(t => ({ topic: `${prefix}wordcount-${t}`, numPartitions: 6 })))
    const dirs = await Promise.all([0, 1, 2].map(async () => tempDir('kstreams-sb')))
    const instances = dirs.map(
      d =>
        new WordCountInstance({
          WORDCOUNT_APP_ID: `${prefix}app`,
          WORDCOUNT_TOPIC_PREFIX: prefix,
          WORDCOUNT_STATE_DIR: d.path,
          WORDCOUNT_COMMIT_INTERVAL_MS: '200',
          WORDCOUNT_SESSION_TIMEOUT_MS: '6000',
          WORDCOUNT_STANDBYS: String(standbys),
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
      instances[0]!.kill('SIGKILL')
      const second = makeLines(300)
      addCounts(expected, second.counts)
      const recordsBefore = output.records
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
          instances.slice(1).map(async (i, n) => {
            const path = join(tmpdir(), `${prefix}survivor-${n + 1}.log`)
            await writeFile(path, i.stderr + '\n' + i.events.map(e => JSON.stringify(e)).join('\n') + '\n')
            return path
          })
        )
        const tail = instances
          .slice(1)
          .map(
            (i, n) =>
              `survivor ${n + 1} (state ${i.state}, whole log in ${logs[n]!}):\n${i.stderr.slice(-2000)}\nevents: ${JSON.stringify(i.events.slice(-8))}`
          )
          .join('\n')
        throw new Error(`${(err as Error).message}\n${tail}`)
      })
      await waitFor('output after the failover', () => output.records > recordsBefore, 60000)
      const failoverMs = Date.now() - killedAt
      const restored = instances.slice(1).flatMap(i => restores(i.events, killedAt))
      for (const [word, count] of expected) expect(output.last.get(word), word).to.be.at.least(count)
      // Kill -> first output of every moved task (its output partition is the task's partition).
      const moved = [...new Set(restored.map(r => r.partition))]
      const firsts = moved.map(p => output.firstArrival(p, killedAt))
      expect(
        firsts.every(t => t !== undefined),
        'every moved task wrote output'
      ).to.equal(true)
      const firstOutputMs = Math.max(...firsts.map(t => t! - killedAt))
      return { restored, failoverMs, firstOutputMs }
    } finally {
      for (const i of instances) i.kill('SIGKILL')
      await Promise.all(instances.map(i => i.exited))
      await output.stop()
      for (const d of dirs) await d.remove()
    }
  }

  it('with numStandbyReplicas 1 the new owners restore only the tail; without, the whole changelog', async () => {
    const withStandby = await scenario(1)
    const without = await scenario(0)
    const taken = (r: Restore[]): Restore[] => r.filter(x => x.end > 0)
    expect(taken(withStandby.restored).length, 'tasks moved to survivors').to.be.greaterThan(0)
    for (const r of taken(withStandby.restored)) {
      expect(r.start, `partition ${r.partition} restored from the standby's position`).to.be.greaterThan(0)
      expect(r.end - r.start, `partition ${r.partition} restored only the tail`).to.be.lessThan(r.end / 2)
    }
    expect(taken(without.restored).length).to.be.greaterThan(0)
    expect(
      taken(without.restored).some(r => r.start === 0),
      'without standbys a moved task restores from 0'
    ).to.equal(true)
    console.log(
      `      failover (kill -> all counted, incl. 6 s session timeout): with standby ${withStandby.failoverMs} ms, without ${without.failoverMs} ms`
    )
    console.log(
      `      kill -> first output of every moved task: with standby ${withStandby.firstOutputMs} ms, without ${without.firstOutputMs} ms`
    )
    console.log(
      `      restored records after the kill: with standby ${taken(withStandby.restored).reduce((n, r) => n + r.end - r.start, 0)}, without ${taken(without.restored).reduce((n, r) => n + r.end - r.start, 0)}`
    )
  })
})
