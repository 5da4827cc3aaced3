import { expect } from 'chai'
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TaskLocks } from '../../../src/runtime/state/task-locks.js'
import { StateDirectory } from '../../../src/runtime/state/state-directory.js'
import { TaskId } from '../../../src/task-id.js'
import { StreamsError } from '../../../src/errors.js'

describe('TaskLocks (task-directory locks shared across threads)', () => {
  const root = mkdtempSync(join(tmpdir(), 'kstreams-task-locks-'))
  after(() => rmSync(root, { recursive: true, force: true }))
  it('one holder per key; only the holder lets go; taskKeys leaves out the cleaner and suspended tasks', () => {
    const locks = new TaskLocks()
    const a = {}
    const b = {}
    expect(locks.tryLock('0_1', a)).to.equal(true)
    expect(locks.tryLock('0_1', a)).to.equal(true)
    expect(locks.tryLock('0_1', b)).to.equal(false)
    expect(locks.holds('0_1', a)).to.equal(true)
    expect(locks.holds('0_1', b)).to.equal(false)
    locks.unlock('0_1', b)
    expect(locks.tryLock('0_1', b)).to.equal(false)
    expect(locks.tryLock('1_12', b)).to.equal(true)
    expect(locks.tryLock('2_0', TaskLocks.CLEANER)).to.equal(true)
    expect(locks.taskKeys().sort()).to.deep.equal(['0_1', '1_12'])
    locks.setSuspended('0_1', b, true)
    expect(locks.taskKeys().sort()).to.deep.equal(['0_1', '1_12'])
    locks.setSuspended('0_1', a, true)
    expect(locks.taskKeys()).to.deep.equal(['1_12'])
    locks.setSuspended('0_1', a, false)
    expect(locks.taskKeys().sort()).to.deep.equal(['0_1', '1_12'])
    locks.unlockAll(a)
    expect(locks.tryLock('0_1', b)).to.equal(true)
    locks.unlockAll(b)
    expect(locks.taskKeys()).to.deep.equal([])
  })

  it('rejects a key too long for a slot, naming it', () => {
    const key = `${'9'.repeat(40)}_${'9'.repeat(20)}`
    expect(() => new TaskLocks().tryLock(key, {})).to.throw(StreamsError, key)
  })

  it('a lock taken on a worker thread holds here, and a waiting lockTask takes it once the worker lets go', async () => {
    const directory = new StateDirectory(root, 'app')
    const worker = new Worker(new URL('./fixtures/task-locks-worker.ts', import.meta.url), {
      workerData: { memory: directory.taskLocks.memory, key: '0_3' }
    })
    try {
      const [first] = (await once(worker, 'message')) as [{ locked: boolean; held: string[] }]
      expect(first).to.deep.equal({ locked: true, held: ['0_3'] })
      const owner = {}
      expect(directory.tryLockTask(new TaskId(0, 3), owner)).to.equal(false)
      expect(directory.ownedTasks()).to.deep.equal(['0_3'])
      const waiting = directory.lockTask(new TaskId(0, 3), owner, 10_000)
      let taken = false
      void waiting.then(() => {
        taken = true
      })
      await new Promise(resolve => setTimeout(resolve, 50))
      expect(taken).to.equal(false)
      worker.postMessage('release')
      await waiting
      expect(directory.taskLocks.holds('0_3', owner)).to.equal(true)
    } finally {
      await worker.terminate()
    }
  })

  it('a worker thread that ended without letting go: unlockThread frees what its holders held', async () => {
    const locks = new TaskLocks()
    const worker = new Worker(new URL('./fixtures/task-locks-worker.ts', import.meta.url), {
      workerData: { memory: locks.memory, key: '1_1' }
    })
    const [first] = (await once(worker, 'message')) as [{ locked: boolean }]
    expect(first.locked).to.equal(true)
    const mine = {}
    expect(locks.tryLock('1_2', mine)).to.equal(true)
    const thread = worker.threadId
    await worker.terminate()
    expect(locks.tryLock('1_1', mine)).to.equal(false)
    locks.unlockThread(thread)
    expect(locks.tryLock('1_1', mine)).to.equal(true)
    expect(locks.holds('1_2', mine)).to.equal(true)
  })

  it('a worker terminated inside the critical section: once it is let go, this thread and other workers lock again, and its half-written slot is free', async () => {
    // The instance's main thread runs on a worker, so that this one fails instead of hanging if the table stays locked.
    const instance = new Worker(new URL('./fixtures/task-locks-instance.ts', import.meta.url))
    try {
      const report = await Promise.race([
        once(instance, 'message').then(([message]) => message as Record<string, unknown>),
        once(instance, 'error').then(([error]) => Promise.reject(error as Error)),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the task lock table stayed locked')), 15_000))
      ])
      expect(report).to.deep.equal({
        stoppedInside: true,
        beforeLetGo: 'STATE_DIR_LOCKED retriable=true',
        otherWorker: { locked: true, held: 3 },
        here: { '0_2': true, '0_3': true, keys: ['0_1', '0_2', '0_3', '0_4', '0_5'] }
      })
    } finally {
      await instance.terminate()
    }
  })

  it('holds more than 4096 task directories: the table grows, on a worker or here, and every thread sees it', async () => {
    const locks = new TaskLocks()
    // The worker grows the table (256 slots at first), then this thread does.
    const worker = new Worker(new URL('./fixtures/task-locks-worker.ts', import.meta.url), {
      workerData: { memory: locks.memory, keys: Array.from({ length: 300 }, (_, i) => `1_${i}`), mode: 'lock' }
    })
    const [report] = (await once(worker, 'message')) as [{ locked: boolean; held: number }]
    expect(report).to.deep.equal({ locked: true, held: 300 })
    const mine = {}
    expect(locks.tryLock('1_299', mine)).to.equal(false)
    for (let i = 0; i < 4100; i++) expect(locks.tryLock(`0_${i}`, mine)).to.equal(true)
    expect(locks.taskKeys()).to.have.length(4400)
    expect(locks.holds('0_4099', mine)).to.equal(true)
    locks.unlockThread(worker.threadId)
    expect(locks.taskKeys()).to.have.length(4100)
    expect(locks.tryLock('1_299', mine)).to.equal(true)
    locks.unlockAll(mine)
    expect(locks.taskKeys()).to.deep.equal([])
  })

  it('a table that cannot grow any more fails the lock with ILLEGAL_STATE naming the task and the count', () => {
    // Memory made elsewhere, without room to grow: four slots.
    const locks = new TaskLocks(new SharedArrayBuffer((4 + 4 * 16) * 4))
    for (let i = 0; i < 4; i++) locks.tryLock(`0_${i}`, {})
    const error = (() => {
      try {
        locks.tryLock('0_4', {})
      } catch (err) {
        return err
      }
    })()
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal('ILLEGAL_STATE')
    expect((error as StreamsError).message)
      .to.contain('0_4')
      .and.contain('4 task directories')
  })

  it('lockTask gives up after its timeout with a retriable STATE_DIR_LOCKED', async () => {
    const directory = new StateDirectory(root, 'app')
    directory.tryLockTask(new TaskId(2, 0), {})
    const error = await directory.lockTask(new TaskId(2, 0), {}, 30).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal('STATE_DIR_LOCKED')
    expect((error as StreamsError).retriable).to.equal(true)
  })
})
