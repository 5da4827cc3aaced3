import { expect } from 'chai'
import { chmod, mkdtemp, readdir, rm, stat, utimes, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StateDirectory } from '../../../src/runtime/state/state-directory.js'
import { TaskId } from '../../../src/task-id.js'
import type { ConfigError } from '../../../src/errors.js'

describe('StateDirectory', () => {
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'kstreams-sd-'))
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('creates the app and task directories with mode 0700', async () => {
    const sd = new StateDirectory(root, 'app')
    await sd.lock()
    await sd.ensureDir(sd.taskDir(new TaskId(1, 2)))
    expect((await stat(sd.appDir)).mode & 0o777).to.equal(0o700)
    expect((await stat(join(root, 'app', '1_2'))).mode & 0o777).to.equal(0o700)
    expect((await sd.listTaskDirs()).map(t => t.toString())).to.deep.equal(['1_2'])
    await sd.unlock()
  })

  it('create() makes the state and app directories owner-only, as a KafkaStreams being built does', async () => {
    const sd = new StateDirectory(join(root, 'state'), 'app')
    sd.create()
    expect((await stat(join(root, 'state'))).mode & 0o777).to.equal(0o700)
    expect((await stat(sd.appDir)).mode & 0o777).to.equal(0o700)
    sd.create()
  })

  it('create() fails with a ConfigError naming stateDir, the OS error as its cause, for a directory it cannot use', async () => {
    await writeFile(join(root, 'file'), 'x')
    await mkdir(join(root, 'taken'))
    await writeFile(join(root, 'taken', 'app'), 'x')
    const failure = (stateDir: string): unknown[] => {
      try {
        new StateDirectory(stateDir, 'app').create()
      } catch (e) {
        const err = e as ConfigError
        return [err.constructor.name, err.code, err.key, (err.cause as NodeJS.ErrnoException).code]
      }
      return ['created']
    }
    expect(failure(join(root, 'file'))).to.deep.equal(['ConfigError', 'INVALID_CONFIG', 'stateDir', 'ENOTDIR'])
    expect(failure(join(root, 'taken'))).to.deep.equal(['ConfigError', 'INVALID_CONFIG', 'stateDir', 'EEXIST'])
    expect(failure(join(root, 'd'.repeat(300)))).to.deep.equal(['ConfigError', 'INVALID_CONFIG', 'stateDir', 'ENAMETOOLONG'])
  })

  it('keeps the process id across restarts', async () => {
    const first = await new StateDirectory(root, 'app').processId()
    expect(first).to.match(/^[0-9a-f-]{36}$/)
    expect(await new StateDirectory(root, 'app').processId()).to.equal(first)
  })

  it('a second instance (in this process too) is refused while the first holds the lock, and gets it once it is let go', async () => {
    const a = new StateDirectory(root, 'app')
    const b = new StateDirectory(root, 'app')
    await a.lock()
    const refused = await b.lock().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(refused).to.have.property('code', 'STATE_DIR_LOCKED')
    await a.unlock()
    await b.lock()
    await b.unlock()
  })

  it('tightens an existing app directory to owner-only, as a new one', async () => {
    await mkdir(join(root, 'app'), { mode: 0o777 })
    await chmod(join(root, 'app'), 0o777)
    const sd = new StateDirectory(root, 'app')
    await sd.lock()
    expect((await stat(sd.appDir)).mode & 0o777).to.equal(0o700)
    await sd.unlock()
  })

  it('taking the app lock deletes the checkpoint temp files a crashed writer left in task and global directories, and nothing else', async () => {
    const dirs = ['0_0', '1_3', 'global', 'global-2', 'not-a-task']
    for (const d of dirs) {
      await mkdir(join(root, 'app', d, 'rocksdb'), { recursive: true })
      for (const name of ['.checkpoint', '.checkpoint.4242.0.tmp', '.checkpoint.tmp']) await writeFile(join(root, 'app', d, name), 'x')
    }
    const sd = new StateDirectory(root, 'app')
    await sd.lock()
    try {
      for (const d of dirs.slice(0, 4)) expect((await readdir(join(root, 'app', d))).sort(), d).to.deep.equal(['.checkpoint', 'rocksdb'])
      expect(await readdir(join(root, 'app', 'not-a-task'))).to.have.length(4)
    } finally {
      await sd.unlock()
    }
  })

  it('a task directory holding only a checkpoint and checkpoint temp files is empty (no state under exactly-once)', async () => {
    const sd = new StateDirectory(root, 'app')
    const id = new TaskId(0, 1)
    expect(await sd.taskDirIsEmpty(id), 'no directory').to.equal(true)
    await sd.ensureDir(sd.taskDir(id))
    for (const name of ['.checkpoint', '.checkpoint.4242.0.tmp', '.checkpoint.tmp']) await writeFile(join(sd.taskDir(id), name), 'x')
    expect(await sd.taskDirIsEmpty(id)).to.equal(true)
    await mkdir(join(sd.taskDir(id), 'rocksdb'))
    expect(await sd.taskDirIsEmpty(id), 'with a store directory').to.equal(false)
  })

  it('rejects an application id that is not a plain directory name', () => {
    for (const id of ['..', 'a/b', '']) {
      expect(() => new StateDirectory(root, id))
        .to.throw()
        .with.property('code', 'ILLEGAL_ARGUMENT')
    }
  })

  it('cleanUp removes task directories', async () => {
    const sd = new StateDirectory(root, 'app')
    await sd.ensureDir(sd.taskDir(new TaskId(0, 0)))
    await sd.cleanUp()
    expect(await sd.listTaskDirs()).to.deep.equal([])
  })

  it('cleanUp is refused while another instance holds the lock, and leaves its state alone', async () => {
    const running = new StateDirectory(root, 'app')
    await running.lock()
    await running.ensureDir(running.taskDir(new TaskId(0, 0)))
    const other = new StateDirectory(root, 'app')
    const refused = await other.cleanUp().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(refused).to.have.property('code', 'STATE_DIR_LOCKED')
    expect((await readdir(running.appDir)).sort()).to.deep.equal(['.lock', '0_0'])
    await running.unlock()
    await other.cleanUp()
    expect(await readdir(running.appDir)).to.deep.equal(['.lock'])
  })

  describe('task directory locks', () => {
    const t00 = new TaskId(0, 0)

    it('are held per owner: the same owner takes it again, another waits until it is let go', async () => {
      const sd = new StateDirectory(root, 'app')
      const [threadA, threadB] = [{}, {}]
      expect(await sd.lockTask(t00, threadA, 0)).to.equal(sd.taskDir(t00))
      expect((await stat(sd.taskDir(t00))).mode & 0o777).to.equal(0o700)
      await sd.lockTask(t00, threadA, 0)
      expect(sd.tryLockTask(t00, threadB)).to.equal(false)
      const refused = await sd.lockTask(t00, threadB, 50).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(refused).to.have.property('code', 'STATE_DIR_LOCKED')
      expect(refused).to.have.property('retriable', true)
      expect(refused).to.have.property('taskId', '0_0')
      let taken = false
      const waiting = sd.lockTask(t00, threadB, 5000).then(() => {
        taken = true
      })
      await new Promise(resolve => setTimeout(resolve, 20))
      expect(taken).to.equal(false)
      sd.unlockTask(t00, threadA)
      await waiting
      expect(taken).to.equal(true)
      sd.unlockTask(t00, threadA) // not the owner: no effect
      expect(sd.tryLockTask(t00, threadA)).to.equal(false)
      sd.unlockAllTasks(threadB)
      expect(sd.tryLockTask(t00, threadA)).to.equal(true)
    })

    it('wipeTask deletes a task directory only for its owner (or when nobody holds it)', async () => {
      const sd = new StateDirectory(root, 'app')
      const [threadA, threadB] = [{}, {}]
      await sd.lockTask(t00, threadA, 0)
      const refused = await sd.wipeTask(t00, threadB).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(refused).to.have.property('code', 'STATE_DIR_LOCKED')
      expect(await sd.listTaskDirs()).to.have.length(1)
      await sd.wipeTask(t00, threadA)
      expect(await sd.listTaskDirs()).to.deep.equal([])
      expect(sd.tryLockTask(t00, threadB)).to.equal(false) // the owner still holds the lock
    })

    it('the state cleaner removes the directories nobody holds once older than the delay', async () => {
      const sd = new StateDirectory(root, 'app')
      const owner = {}
      const [held, old, recent] = [new TaskId(0, 0), new TaskId(0, 1), new TaskId(1, 0)]
      await sd.lockTask(held, owner, 0)
      for (const id of [old, recent]) await sd.ensureDir(sd.taskDir(id))
      await mkdir(sd.globalDir())
      const now = Date.now()
      const minutesAgo = (m: number): Date => new Date(now - m * 60_000)
      for (const id of [held, old]) await utimes(sd.taskDir(id), minutesAgo(11), minutesAgo(11))
      await utimes(sd.globalDir(), minutesAgo(11), minutesAgo(11))
      await utimes(sd.taskDir(recent), minutesAgo(9), minutesAgo(9))
      expect((await sd.cleanRemovedTasks(10 * 60_000, now)).map(String)).to.deep.equal(['0_1'])
      expect((await sd.listTaskDirs()).map(String).sort()).to.deep.equal(['0_0', '1_0'])
      expect(await readdir(sd.appDir)).to.include('global')
      // The cleaner let go of what it looked at.
      expect(sd.tryLockTask(recent, owner)).to.equal(true)
    })
  })
})
