/**
 * What `kstreams state` reads from a state directory, laid out as the runtime writes it
 * (`<state.dir>/<application.id>/<subtopology>_<partition>/`, `global/`, RocksDB stores under
 * `rocksdb/<store>`, the task's `.checkpoint` read with core's OffsetCheckpoint), and, given an
 * admin, the end offsets of the checkpointed changelog partitions and the lag behind them. The
 * checkpointed offset is the last changelog offset the store holds, so a caught-up store has
 * lag end - offset - 1 (under exactly-once the end counts transaction markers too). @internal
 */
import { tpKey, type AdminPort } from '@kstreams/core'
import { CheckpointCorruptedError, OFFSET_UNKNOWN, OffsetCheckpoint } from '@kstreams/core/internal'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { CliError } from './cli-error.js'

const TASK_DIR = /^(\d+)_(\d+)$/
const APP_DIR_MARKERS = ['.lock', 'kafka-streams-process-metadata', 'global']

/** One checkpointed changelog partition. */
export interface CheckpointEntry {
  readonly topic: string
  readonly partition: number
  /** The last offset the store holds; null when the checkpoint says it is unknown. */
  readonly offset: number | null
  /** The store, when the topic is `<application.id>-<store>-changelog`. */
  readonly store: string | null
  /** The partition's end offset (with an admin); null when the topic does not exist. */
  endOffset?: number | null
  /** Records between the checkpoint and the end (with an admin). */
  lag?: number | null
}

/** One task directory (or `global`). */
export interface TaskState {
  readonly taskId: string
  readonly dir: string
  /** Store directories: RocksDB stores (`rocksdb/<store>`) and other directories in the task's. */
  readonly stores: readonly string[]
  /** The checkpoint's entries; empty when there is no `.checkpoint`. */
  readonly checkpoint: readonly CheckpointEntry[]
  /** Why the checkpoint could not be read, when it could not. */
  readonly checkpointError: string | null
}

/** One application's state directory. */
export interface ApplicationState {
  readonly applicationId: string
  readonly dir: string
  readonly tasks: readonly TaskState[]
}

/** The applications under `dir`: `dir` itself when it is one application's directory, else each one in it. */
export async function inspectStateDirectory(dir: string): Promise<ApplicationState[]> {
  const root = resolve(dir)
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CliError('ILLEGAL_ARGUMENT', `State directory ${root} does not exist`)
  const appDirs = isApplicationDir(root)
    ? [root]
    : subdirectories(root)
        .map(name => join(root, name))
        .filter(isApplicationDir)
  return await Promise.all(appDirs.map(inspectApplication))
}

/** Adds the end offset and lag of every checkpointed partition whose topic exists. */
export async function addLags(apps: readonly ApplicationState[], admin: AdminPort): Promise<void> {
  const entries = apps.flatMap(app => app.tasks.flatMap(task => task.checkpoint))
  const counts = await admin.partitionCounts([...new Set(entries.map(e => e.topic))])
  const existing = entries.filter(e => e.partition < (counts.get(e.topic) ?? 0))
  const ends = await admin.endOffsets(existing)
  for (const entry of entries) {
    const end = ends.get(tpKey(entry.topic, entry.partition))
    entry.endOffset = end ?? null
    entry.lag = end === undefined || entry.offset === null ? null : Math.max(0, end - entry.offset - 1)
  }
}

function isApplicationDir(dir: string): boolean {
  const names = readdirSync(dir)
  return names.some(name => TASK_DIR.test(name) || APP_DIR_MARKERS.includes(name))
}

function subdirectories(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter(e => e.isDirectory() && !e.name.startsWith('.'))
    .map(e => e.name)
    .sort()
}

async function inspectApplication(dir: string): Promise<ApplicationState> {
  const applicationId = basename(dir)
  const taskNames = subdirectories(dir)
    .filter(name => TASK_DIR.test(name))
    .sort((a, b) => {
      const [sa, pa] = a.split('_').map(Number) as [number, number]
      const [sb, pb] = b.split('_').map(Number) as [number, number]
      return sa - sb || pa - pb
    })
  if (existsSync(join(dir, 'global'))) taskNames.push('global')
  return { applicationId, dir, tasks: await Promise.all(taskNames.map(name => inspectTask(applicationId, join(dir, name), name))) }
}

async function inspectTask(applicationId: string, dir: string, taskId: string): Promise<TaskState> {
  const stores = subdirectories(dir).flatMap(name => (name === 'rocksdb' ? subdirectories(join(dir, name)) : [name]))
  let checkpoint: CheckpointEntry[] = []
  let checkpointError: string | null = null
  try {
    checkpoint = [...(await new OffsetCheckpoint(join(dir, '.checkpoint')).read()).values()]
      .map(({ topic, partition, offset }) => ({
        topic,
        partition,
        offset: offset === OFFSET_UNKNOWN ? null : offset,
        store: storeOf(applicationId, topic)
      }))
      .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
  } catch (error) {
    if (!(error instanceof CheckpointCorruptedError)) throw error
    checkpointError = error.message
  }
  return { taskId, dir, stores, checkpoint, checkpointError }
}

function storeOf(applicationId: string, topic: string): string | null {
  const prefix = `${applicationId}-`
  const suffix = '-changelog'
  return topic.startsWith(prefix) && topic.endsWith(suffix) && topic.length > prefix.length + suffix.length
    ? topic.slice(prefix.length, -suffix.length)
    : null
}
