/**
 * The `.checkpoint` file of a task (Kafka Streams' OffsetCheckpoint, format version 0): UTF-8
 * lines "0", the entry count, then "<topic> <partition> <offset>". Written to a temp file,
 * fsynced and renamed so a crash leaves either the old or the new file; an empty map deletes
 * the file. A file that cannot be parsed is a CheckpointCorruptedError: the caller restores
 * from the beginning of the changelog instead.
 */
import { open, readFile, rename, rm } from 'node:fs/promises'
import { StreamsError } from '../../errors.js'
import { tpKey, type TopicPartitionOffset } from '../kafka/ports.js'

const VERSION = 0
/** A logged store whose offset is not known yet (Kafka's OFFSET_UNKNOWN). */
export const OFFSET_UNKNOWN = -4

export class CheckpointCorruptedError extends StreamsError {
  readonly path: string
  constructor(path: string, reason: string) {
    super('CHECKPOINT_CORRUPTED', `Checkpoint file ${path} is corrupted: ${reason}`)
    this.path = path
  }
}

/** The last pending write per path: writes to one file run one after the other, in call order. */
const pendingWrites = new Map<string, Promise<void>>()
let tmpSequence = 0

export class OffsetCheckpoint {
  readonly path: string

  constructor(path: string) {
    this.path = path
  }

  /**
   * Writes the offsets atomically; an empty list deletes the file. Concurrent writes of the same
   * file (a commit while a restore checkpoints) are serialized, the last call winning.
   */
  write(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    const previous = pendingWrites.get(this.path) ?? Promise.resolve()
    const next = previous.catch(() => {}).then(() => this.#write(offsets))
    pendingWrites.set(this.path, next)
    const forget = (): void => {
      if (pendingWrites.get(this.path) === next) pendingWrites.delete(this.path)
    }
    next.then(forget, forget)
    return next
  }

  async #write(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    if (offsets.length === 0) {
      await this.delete()
      return
    }
    const lines = [String(VERSION), String(offsets.length)]
    for (const { topic, partition, offset } of offsets) {
      if (offset < 0 && offset !== OFFSET_UNKNOWN) {
        throw new StreamsError('ILLEGAL_ARGUMENT', `Invalid negative offset ${offset} for ${topic}-${partition} in checkpoint ${this.path}`)
      }
      if (/\s/.test(topic)) throw new StreamsError('ILLEGAL_ARGUMENT', `Topic name with whitespace cannot be checkpointed: "${topic}"`)
      lines.push(`${topic} ${partition} ${offset}`)
    }
    const tmp = `${this.path}.${process.pid}.${tmpSequence++}.tmp`
    const handle = await open(tmp, 'w', 0o600)
    try {
      await handle.writeFile(lines.join('\n') + '\n', 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(tmp, this.path)
  }

  /** Reads the offsets; a missing file gives an empty map. Negative offsets other than OFFSET_UNKNOWN are skipped. */
  async read(): Promise<Map<string, TopicPartitionOffset>> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map()
      throw err
    }
    const lines = text.split('\n')
    if (lines.at(-1) === '') lines.pop()
    if (lines.length < 2) throw new CheckpointCorruptedError(this.path, 'missing header lines')
    if (lines[0] !== String(VERSION)) throw new CheckpointCorruptedError(this.path, `unknown version "${lines[0]}"`)
    const count = Number(lines[1])
    if (!Number.isSafeInteger(count) || count < 0) throw new CheckpointCorruptedError(this.path, `invalid entry count "${lines[1]}"`)
    if (lines.length - 2 !== count) throw new CheckpointCorruptedError(this.path, `expected ${count} entries but found ${lines.length - 2}`)
    const offsets = new Map<string, TopicPartitionOffset>()
    for (const line of lines.slice(2)) {
      const parts = line.split(' ')
      const partition = Number(parts[1])
      const offset = Number(parts[2])
      if (parts.length !== 3 || parts[0] === '' || !Number.isSafeInteger(partition) || partition < 0 || !Number.isSafeInteger(offset)) {
        throw new CheckpointCorruptedError(this.path, `malformed entry "${line}"`)
      }
      if (offset < 0 && offset !== OFFSET_UNKNOWN) continue
      offsets.set(tpKey(parts[0]!, partition), { topic: parts[0]!, partition, offset })
    }
    return offsets
  }

  async delete(): Promise<void> {
    await rm(this.path, { force: true })
  }
}
