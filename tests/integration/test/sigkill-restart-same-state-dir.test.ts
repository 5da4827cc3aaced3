import { expect } from 'chai'
import { FaultApp } from './wordcount-fault-harness.js'

/**
 * Three WordCount instances (RocksDB stores, default uncaught-exception handler) while lines
 * flow; one is SIGKILLed mid-stream and started again on the same state directory (stale lock,
 * checkpoints of before the crash, RocksDB files with writes after them) once the others took
 * its tasks over; then another is SIGKILLed and restarted at once, while its dead member is
 * still in the group.
 */
describe('Fault: an instance SIGKILLed mid-stream restarts on its state directory (three instances)', function () {
  this.timeout(300000)

  it('no instance reaches ERROR, no count ends below the true count, every store equals its changelog', async () => {
    const app = await FaultApp.create({ name: 'fk' })
    try {
      const dirs = [await app.newStateDir(), await app.newStateDir(), await app.newStateDir()]
      const first = await Promise.all(dirs.map(async d => await app.start(d)))
      await app.waitAllRunning()
      app.startFeeding()
      const before = await app.outputRecords()
      await app.waitFor('output while the lines flow', async () => (await app.outputRecords()) > before + 2000, 60000)
      const mark = first[0]!.events.length
      await app.stop(first[1]!, 'SIGKILL')
      // The survivors take the tasks over (after the session timeout), then the instance comes back.
      const rebalanced = (): boolean => first[0]!.events.slice(mark).some(e => e.event === 'state' && e.to === 'REBALANCING')
      await app.waitFor(
        'the survivors RUNNING after the rebalance',
        () => rebalanced() && app.live.every(i => i.state === 'RUNNING'),
        90000
      )
      const restarted = await app.start(dirs[1])
      await app.waitAllRunning()
      const resumed = await app.outputRecords()
      await app.waitFor('output after the restart', async () => (await app.outputRecords()) > resumed + 1000, 60000)
      // Another one at once, while its dead member is still in the group (session timeout 6 s).
      await app.stop(first[2]!, 'SIGKILL')
      const again = await app.start(dirs[2])
      await app.waitFor(
        'the instance restarted at once RUNNING with the others',
        () => again.state === 'RUNNING' && app.live.every(i => i.state === 'RUNNING'),
        120000
      )
      const later = await app.outputRecords()
      await app.waitFor('output after the second restart', async () => (await app.outputRecords()) > later + 1000, 60000)
      await app.verify()
      for (const i of [restarted, again])
        expect(
          i.events.some(e => e.event === 'state' && e.to === 'RUNNING'),
          'the restarted instances ran'
        ).to.equal(true)
    } finally {
      await app.cleanup()
    }
  })
})
