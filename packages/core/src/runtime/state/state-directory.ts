/**
 * The local state directory of one KafkaStreams instance: `<stateDir>/<applicationId>/` with the
 * process lock (`.lock`), the process metadata (a processId reused across restarts), one directory
 * per task (`<subtopology>_<partition>`) and `global/`. Every directory is created with mode 0700.
 * The lock keeps a second process with the same application id and state directory out.
 */
import { mkdir, open, readFile, readdir, rm, writeFile, rename } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { StreamsError } from '../../errors.js'
import { TaskId } from '../../task-id.js'

const LOCK_FILE = '.lock'
const PROCESS_FILE = 'kafka-streams-process-metadata'
const TASK_DIR = /^(\d+)_(\d+)$/

export class StateDirectory {
  readonly appDir: string
  #locked = false

  constructor (stateDir: string, applicationId: string) {
    if (applicationId === '' || applicationId.includes('/') || applicationId === '.' || applicationId === '..') {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Application id "${applicationId}" cannot be used as a directory name`)
    }
    this.appDir = join(stateDir, applicationId)
  }

  /** Creates the app directory and takes the process lock; fails if a live process holds it. */
  async lock (): Promise<void> {
    await mkdir(this.appDir, { recursive: true, mode: 0o700 })
    const path = join(this.appDir, LOCK_FILE)
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(path, 'wx', 0o600)
        await handle.writeFile(String(process.pid))
        await handle.close()
        this.#locked = true
        return
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
        const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim())
        if (Number.isSafeInteger(holder) && holder > 0 && isAlive(holder)) {
          const who = holder === process.pid ? 'another KafkaStreams instance in this process' : `process ${holder}`
          throw new StreamsError('STATE_DIR_LOCKED', `State directory ${this.appDir} is locked by ${who}: an instance with the same applicationId and stateDir is running`)
        }
        // Stale lock of a process that is gone.
        await rm(path, { force: true })
      }
    }
    throw new StreamsError('STATE_DIR_LOCKED', `Could not lock state directory ${this.appDir}`)
  }

  async unlock (): Promise<void> {
    if (!this.#locked) return
    this.#locked = false
    await rm(join(this.appDir, LOCK_FILE), { force: true })
  }

  /** The processId of this instance: read from the metadata file, or created and stored. */
  async processId (): Promise<string> {
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

  taskDir (taskId: TaskId): string {
    return join(this.appDir, taskId.toString())
  }

  globalDir (): string {
    return join(this.appDir, 'global')
  }

  async ensureDir (dir: string): Promise<string> {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    return dir
  }

  /** Task ids of every task directory on disk. */
  async listTaskDirs (): Promise<TaskId[]> {
    let names: string[]
    try {
      names = await readdir(this.appDir)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    return names.filter(n => TASK_DIR.test(n)).map(n => TaskId.parse(n))
  }

  /** Deletes one task's local state (it will be restored from its changelog). */
  async wipeTask (taskId: TaskId): Promise<void> {
    await rm(this.taskDir(taskId), { recursive: true, force: true })
  }

  /** Deletes all local state of the application (KafkaStreams.cleanUp). */
  async cleanUp (): Promise<void> {
    const names = await readdir(this.appDir).catch(() => [] as string[])
    for (const name of names) {
      if (name === LOCK_FILE) continue
      await rm(join(this.appDir, name), { recursive: true, force: true })
    }
  }
}

function isAlive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
