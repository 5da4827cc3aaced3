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

  it('lockTask gives up after its timeout with a retriable STATE_DIR_LOCKED', async () => {
    const directory = new StateDirectory(root, 'app')
    directory.tryLockTask(new TaskId(2, 0), {})
    const error = await directory.lockTask(new TaskId(2, 0), {}, 30).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal('STATE_DIR_LOCKED')
    expect((error as StreamsError).retriable).to.equal(true)
  })
})
