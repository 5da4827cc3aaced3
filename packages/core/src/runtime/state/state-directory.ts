/**
 * The local state directory of one KafkaStreams instance: `<stateDir>/<applicationId>/` with the
 * process lock (`.lock`), the process metadata (a processId reused across restarts), one directory
 * per task (`<subtopology>_<partition>`) and `global/`. KafkaStreams creates the app directory
 * when it is built (create()), so a state directory it cannot use fails there, naming `stateDir`.
 * Directories are owner-only (0700): new ones are created so, an existing app directory is
 * tightened when the lock is taken.
 * Two locks, as Kafka Streams' StateDirectory:
 * - the app lock, an OS lock on `.lock` (FileLock) that keeps a second instance with the same
 *   application id and state directory out, in another process or this one, and that dies with
 *   its holder; `cleanUp()` takes it too, so it never deletes a running instance's state;
 * - a lock per task directory, held by the stream thread whose task (active or standby) uses it,
 *   so two threads of one instance never open one task's stores at once, and the state cleaner
 *   (`cleanRemovedTasks`) deletes only directories no task holds.
 */
import { chmod, mkdir, readFile, readdir, rm, stat, writeFile, rename } from 'node:fs/promises'
import { accessSync, constants, mkdirSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { ConfigError, StreamsError } from '../../errors.js'
import { TaskId } from '../../task-id.js'
import { FileLock } from './file-lock.js'
import { TaskLocks } from './task-locks.js'
import { OffsetCheckpoint } from './offset-checkpoint.js'

const LOCK_FILE = '.lock'
const PROCESS_FILE = 'kafka-streams-process-metadata'
const TASK_DIR = /^(\d+)_(\d+)$/
const GLOBAL_DIR = /^global(-\d+)?$/
const CHECKPOINT_FILE = '.checkpoint'
/** The owner of the task locks the state cleaner takes while it looks at a directory. */
const CLEANER = TaskLocks.CLEANER

const checkpointOf = (dir: string): OffsetCheckpoint => new OffsetCheckpoint(join(dir, CHECKPOINT_FILE))

export class StateDirectory {
  readonly appDir: string
  readonly #stateDir: string
  #lock: FileLock | undefined
  /** Who holds each task directory, by task id; shared with the worker threads of the instance. */
  readonly taskLocks: TaskLocks

  constructor(stateDir: string, applicationId: string, taskLocks = new TaskLocks()) {
    this.taskLocks = taskLocks
    if (
      applicationId === '' ||
      applicationId.includes('/') ||
      applicationId.includes('\\') ||
      applicationId === '.' ||
      applicationId === '..'
    ) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Application id "${applicationId}" cannot be used as a directory name`)
    }
    this.#stateDir = stateDir
    this.appDir = join(stateDir, applicationId)
  }

  /**
   * Creates the state directory and the app directory in it (new ones owner-only) and checks that
   * this process can use the app directory, as Kafka's StateDirectory does when it is built: a
   * ConfigError naming `stateDir`, with the OS error as its cause, when it cannot (not writable,
   * a file, a path too long).
   */
  create(): void {
    try {
      mkdirSync(this.appDir, { recursive: true, mode: 0o700 })
      accessSync(this.appDir, constants.R_OK | constants.W_OK | constants.X_OK)
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code === 'EEXIST' ? 'a file of that name exists' : (err as Error).message
      throw new ConfigError('stateDir', `Cannot use the state directory ${this.appDir} (stateDir "${this.#stateDir}"): ${reason}`, {
        cause: err
      })
    }
  }

  /**
   * Creates the app directory (or makes an existing one owner-only) and takes the app lock;
   * STATE_DIR_LOCKED when another instance, in any process, holds it. With the lock, nothing else
   * writes here: the checkpoint temp files in task and global directories are what a process
   * that died mid-write left behind, and are deleted.
   */
  async lock(): Promise<void> {
    if (this.#lock !== undefined) return
    await mkdir(this.appDir, { recursive: true, mode: 0o700 })
    const path = join(this.appDir, LOCK_FILE)
    const lock = await FileLock.tryAcquire(path, `${process.pid}\n`)
    if (lock === undefined) {
      const holder = (await readFile(path, 'utf8').catch(() => '')).trim()
      const who =
        holder === String(process.pid)
          ? 'another KafkaStreams instance in this process'
          : /^\d+$/.test(holder)
            ? `process ${holder}`
            : 'another process'
      throw new StreamsError(
        'STATE_DIR_LOCKED',
        `State directory ${this.appDir} is locked by ${who}: an instance with the same applicationId and stateDir is running`
      )
    }
    try {
      await chmod(this.appDir, 0o700)
      await this.#removeCheckpointTempFiles()
    } catch (err) {
      await lock.release()
      throw err
    }
    this.#lock = lock
  }

  async #removeCheckpointTempFiles(): Promise<void> {
    for (const name of await readdir(this.appDir)) {
      if (TASK_DIR.test(name) || GLOBAL_DIR.test(name)) await checkpointOf(join(this.appDir, name)).removeTemporaryFiles()
    }
  }

  /** Lets go of the app lock (the `.lock` file stays: see FileLock). */
  async unlock(): Promise<void> {
    const lock = this.#lock
    if (lock === undefined) return
    this.#lock = undefined
    await lock.release()
  }

  /** The processId of this instance: read from the metadata file, or created and stored. */
  async processId(): Promise<string> {
    const path = join(this.appDir, PROCESS_FILE)
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as { processId?: unknown }
      if (typeof parsed.processId === 'string' && /^[0-9a-f-]{36}$/.test(parsed.processId)) return parsed.processId
    } catch {
      // missing or unreadable: a new id
    }
    const processId = randomUUID()
    await mkdir(this.appDir, { recursive: true, mode: 0o700 })
    await writeFile(`${path}.tmp`, JSON.stringify({ processId }), { mode: 0o600 })
    await rename(`${path}.tmp`, path)
    return processId
  }

  taskDir(taskId: TaskId): string {
    return join(this.appDir, taskId.toString())
  }

  /** The global stores' directory: `global/`, or `global-<n>` for the copy of the stream thread on worker thread n > 1. */
  globalDir(copy = 1): string {
    return join(this.appDir, copy === 1 ? 'global' : `global-${copy}`)
  }

  async ensureDir(dir: string): Promise<string> {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    return dir
  }

  /**
   * Takes the lock of a task's directory for `owner` (a stream thread's task manager) if nobody
   * else holds it; true when `owner` holds it now (Kafka's StateDirectory.lock(taskId)).
   */
  tryLockTask(taskId: TaskId, owner: object): boolean {
    return this.taskLocks.tryLock(taskId.toString(), owner)
  }

  /**
   * Takes the lock of a task's directory for `owner`, waiting up to `timeoutMs` while another
   * thread of this instance still has the task (it closes it in its own rebalance), and creates
   * the directory. STATE_DIR_LOCKED (retriable) when it is not let go in time.
   */
  async lockTask(taskId: TaskId, owner: object, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const releases = this.taskLocks.releases()
      if (this.tryLockTask(taskId, owner)) break
      const left = deadline - Date.now()
      if (left <= 0) {
        throw new StreamsError(
          'STATE_DIR_LOCKED',
          `The state directory of task ${taskId.toString()} is still used by another stream thread after ${timeoutMs} ms`,
          { taskId: taskId.toString(), retriable: true }
        )
      }
      await this.taskLocks.released(releases, left)
    }
    try {
      return await this.ensureDir(this.taskDir(taskId))
    } catch (err) {
      this.unlockTask(taskId, owner)
      throw err
    }
  }

  /** Lets go of a task directory `owner` holds (no effect otherwise). */
  unlockTask(taskId: TaskId, owner: object): void {
    this.taskLocks.unlock(taskId.toString(), owner)
  }

  /** Lets go of every task directory `owner` holds (a thread that shuts down). */
  unlockAllTasks(owner: object): void {
    this.taskLocks.unlockAll(owner)
  }

  /**
   * The tasks a stream thread of this instance (on any thread) owns: it holds their directories
   * and they are not suspended (a suspended task is reported by the offset sum of its stores, not as running).
   */
  ownedTasks(): string[] {
    return this.taskLocks.taskKeys()
  }

  /** Marks a task `owner` holds as suspended (eager revocation) or resumed. */
  setTaskSuspended(taskId: TaskId, owner: object, suspended: boolean): void {
    this.taskLocks.setSuspended(taskId.toString(), owner, suspended)
  }

  /**
   * Whether a task's directory holds no state (nothing but a checkpoint and its temp files, or
   * does not exist).
   */
  async taskDirIsEmpty(taskId: TaskId): Promise<boolean> {
    const checkpoint = checkpointOf(this.taskDir(taskId))
    try {
      return (await readdir(this.taskDir(taskId))).every(name => name === CHECKPOINT_FILE || checkpoint.isTemporaryFile(name))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true
      throw err
    }
  }

  /** Task ids of every task directory on disk. */
  async listTaskDirs(): Promise<TaskId[]> {
    let names: string[]
    try {
      names = await readdir(this.appDir)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    return names.filter(n => TASK_DIR.test(n)).map(n => TaskId.parse(n))
  }

  /**
   * Deletes one task's local state (it will be restored from its changelog), for `owner`, which
   * holds its lock or takes it; STATE_DIR_LOCKED when another thread holds it.
   */
  async wipeTask(taskId: TaskId, owner: object, closed?: { whenStoresClosed: () => Promise<void> }): Promise<void> {
    // A store that closes in the background (RocksDB) must let go of its files first: deleting
    // them under it, then reopening, corrupts the new store.
    await closed?.whenStoresClosed()
    const held = this.taskLocks.holds(taskId.toString(), owner)
    if (!this.tryLockTask(taskId, owner)) {
      throw new StreamsError('STATE_DIR_LOCKED', `Cannot wipe the state of task ${taskId.toString()}: another stream thread uses it`, {
        taskId: taskId.toString()
      })
    }
    try {
      // A RocksDB store closes in the background (close() only starts it) and may still write a
      // file while the directory is deleted: rm then fails with ENOTEMPTY, and is tried again.
      await rm(this.taskDir(taskId), { recursive: true, force: true, maxRetries: 10, retryDelay: 50 })
    } finally {
      if (!held) this.unlockTask(taskId, owner)
    }
  }

  /**
   * Deletes the global stores' state (their checkpoint with it); the global stream thread, which
   * alone uses the directory, calls it with its stores closed.
   */
  async wipeGlobal(copy = 1): Promise<void> {
    // As wipeTask: a RocksDB store that is still closing may write a file during the delete.
    await rm(this.globalDir(copy), { recursive: true, force: true, maxRetries: 10, retryDelay: 50 })
  }

  /**
   * The state cleaner (Kafka's cleanRemovedTasks): deletes every task directory no task of this
   * instance holds and that has not changed for `cleanupDelayMs` (a task that moved away
   * checkpoints when it closes), so a task that comes back much later restores from its
   * changelog instead of over stale local state. Returns the tasks whose directory it deleted.
   */
  async cleanRemovedTasks(cleanupDelayMs: number, nowMs: number): Promise<TaskId[]> {
    const removed: TaskId[] = []
    for (const id of await this.listTaskDirs()) {
      if (!this.tryLockTask(id, CLEANER)) continue
      try {
        const modified = await stat(this.taskDir(id)).then(
          s => s.mtimeMs,
          () => undefined
        )
        if (modified === undefined || nowMs - cleanupDelayMs <= modified) continue
        await rm(this.taskDir(id), { recursive: true, force: true })
        removed.push(id)
      } finally {
        this.unlockTask(id, CLEANER)
      }
    }
    return removed
  }

  /**
   * Deletes all local state of the application (KafkaStreams.cleanUp) under the app lock, taken
   * for the time of the deletion unless this instance holds it: STATE_DIR_LOCKED while another
   * instance runs on this directory.
   */
  async cleanUp(): Promise<void> {
    if (
      !(await stat(this.appDir).then(
        () => true,
        () => false
      ))
    )
      return
    const held = this.#lock !== undefined
    await this.lock()
    try {
      const names = await readdir(this.appDir)
      for (const name of names) {
        if (name === LOCK_FILE) continue
        await rm(join(this.appDir, name), { recursive: true, force: true })
      }
    } finally {
      if (!held) await this.unlock()
    }
  }
}
