import { expect } from 'chai'
import { sleep } from './helpers.js'
import type { WordCountInstance } from './wordcount-instances.js'
import { FaultApp } from './wordcount-fault-harness.js'

/**
 * Two WordCount instances run throughout while lines flow; for about a minute another instance
 * joins or leaves every few seconds (clean SIGTERM, or SIGKILL), on a few state directories that
 * are reused (stale checkpoints, RocksDB files of earlier owners).
 */
describe('Fault: a rebalance storm (an instance joins or leaves every few seconds for a minute)', function () {
  this.timeout(360000)

  it('no instance reaches ERROR, clean leavers exit 0, no count ends below the true count, every store equals its changelog', async () => {
    const app = await FaultApp.create({ name: 'rs' })
    try {
      await Promise.all([app.start(), app.start()])
      await app.waitAllRunning()
      app.startFeeding()
      const dirs = [await app.newStateDir(), await app.newStateDir(), await app.newStateDir()]
      const busy = new Map<string, WordCountInstance>()
      const storm: WordCountInstance[] = []
      const leaves: Array<Promise<number | null>> = []
      const actions = ['join', 'join', 'leave', 'join', 'kill', 'join', 'leave', 'join', 'leave', 'join', 'kill', 'join', 'leave', 'leave']
      const started = Date.now()
      for (const [n, action] of actions.entries()) {
        await sleep(Math.max(0, started + n * 4500 - Date.now()))
        expect(app.problems(), await app.diagnostics()).to.deep.equal([])
        if (action === 'join') {
          // A directory whose last process is gone (a SIGTERMed one may still be closing).
          for (const [dir, owner] of busy) if (owner.hasExited) busy.delete(dir)
          const dir = dirs.find(d => !busy.has(d))
          if (dir === undefined) continue
          const instance = await app.start(dir)
          busy.set(dir, instance)
          storm.push(instance)
        } else {
          const instance = storm.shift()
          if (instance === undefined) continue
          const exit = app.stop(instance, action === 'kill' ? 'SIGKILL' : 'SIGTERM')
          if (action === 'leave') leaves.push(exit)
        }
      }
      console.log(`      storm of ${actions.length} joins and leaves in ${Date.now() - started} ms`)
      const codes = await Promise.all(leaves)
      expect(codes, `every clean leaver exits with 0\n${await app.diagnostics()}`).to.deep.equal(leaves.map(() => 0))
      const after = await app.outputRecords()
      await app.waitFor('output after the storm', async () => (await app.outputRecords()) > after + 1000, 90000)
      await app.verify()
    } finally {
      await app.cleanup()
    }
  })
})
