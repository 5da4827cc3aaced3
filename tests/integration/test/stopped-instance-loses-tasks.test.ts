import { expect } from 'chai'
import { kafka, sleep } from './helpers.js'
import { FaultApp } from './wordcount-fault-harness.js'

/** Polls the group's committed offsets; remembers every offset that went backwards (a zombie's commit). */
class CommitWatcher {
  readonly decreases: string[] = []
  readonly #highest = new Map<string, number>()
  #stopped = false
  readonly #done: Promise<void>

  constructor(app: FaultApp) {
    this.#done = (async () => {
      const admin = kafka(app.servers).admin()
      await admin.connect()
      try {
        while (!this.#stopped) {
          for (const topic of [app.topics.input, app.topics.words]) {
            const [committed] = await admin.fetchOffsets({ groupId: app.appId, topics: [topic] }).catch(() => [undefined])
            for (const p of committed?.partitions ?? []) {
              const key = `${topic}-${p.partition}`
              const offset = Number(p.offset)
              if (offset < 0) continue
              const highest = this.#highest.get(key) ?? -1
              if (offset < highest) this.decreases.push(`${key}: ${highest} -> ${offset}`)
              this.#highest.set(key, Math.max(highest, offset))
            }
          }
          await sleep(200)
        }
      } finally {
        await admin.disconnect()
      }
    })()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    await this.#done
  }
}

/**
 * Three WordCount instances while lines flow; one is SIGSTOPped for twice the session timeout
 * (6 s), so the group evicts it and the others take its tasks over and process everything, then
 * SIGCONTed with no more input: it must find its membership gone and close its tasks as lost (no
 * commit for them: no committed offset of the group ever goes back; no late write for them: the
 * stores equal their changelogs and no count ends below the true count), rejoin, and the
 * application ends with correct counts.
 */
describe('Fault: an instance SIGSTOPped past the session timeout loses its tasks and rejoins', function () {
  this.timeout(300000)

  it('it closes its tasks as lost without committing, rejoins; no ERROR, no count below the true count, stores equal their changelogs', async () => {
    const app = await FaultApp.create({ name: 'fs' })
    let watcher: CommitWatcher | undefined
    try {
      const [a, b, c] = await Promise.all([app.start(), app.start(), app.start()])
      await app.waitAllRunning()
      app.startFeeding()
      const before = await app.outputRecords()
      await app.waitFor('output while the lines flow', async () => (await app.outputRecords()) > before + 2000, 60000)
      watcher = new CommitWatcher(app)
      const marks = [a!, c!].map(i => i.events.length)
      const stderrMark = b!.stderr.length
      const stoppedAt = Date.now()
      b!.kill('SIGSTOP')
      // The others rebalance without it (after the session timeout) and run its tasks.
      await app.waitFor(
        'the other two RUNNING without the stopped instance',
        () =>
          [a!, c!].every(
            (i, n) => i.events.slice(marks[n]).some(e => e.event === 'state' && e.to === 'REBALANCING') && i.state === 'RUNNING'
          ),
        90000
      )
      await sleep(Math.max(0, stoppedAt + 12000 - Date.now()))
      // No input from here on: whatever the resumed instance still wrote for its old tasks (an
      // older count) would stay last in their changelogs and output, and show in the checks.
      await app.stopFeeding()
      await app.waitQuiet(90000)
      const bMark = b!.events.length
      b!.kill('SIGCONT')
      await app.waitFor(
        'the stopped instance back in the group and RUNNING',
        () => b!.events.slice(bMark).some(e => e.event === 'state' && e.to === 'REBALANCING') && app.live.every(i => i.state === 'RUNNING'),
        90000
      )
      const log = b!.stderr.slice(stderrMark)
      const lost = log.indexOf('closing its active tasks as lost')
      expect(lost, `the resumed instance closed its tasks as lost\n${log.slice(-3000)}`).to.be.greaterThan(-1)
      const revoked = log.indexOf('partitions revoked; committing')
      expect(revoked === -1 || revoked > lost, `no commit of the tasks it lost (revocation before the loss)\n${log.slice(-3000)}`).to.equal(
        true
      )
      await app.waitQuiet(90000)
      await watcher.stop()
      expect(watcher.decreases, 'no committed offset of the group went backwards').to.deep.equal([])
      await app.verify()
    } finally {
      await watcher?.stop()
      await app.cleanup()
    }
  })
})
