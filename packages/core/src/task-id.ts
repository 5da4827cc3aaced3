import { StreamsError } from './errors.js'

/** The id of a task: sub-topology and partition, printed as `<subtopology>_<partition>`. */
export class TaskId {
  constructor(
    /** The sub-topology's id. */
    readonly subtopology: number,
    /** The input partition the task processes. */
    readonly partition: number
  ) {}

  /** Parses `<subtopology>_<partition>`; an ILLEGAL_ARGUMENT error for anything else. */
  static parse(text: string): TaskId {
    const match = /^(\d+)_(\d+)$/.exec(text)
    if (match === null) throw new StreamsError('ILLEGAL_ARGUMENT', `Task id cannot be parsed correctly from "${text}"`)
    return new TaskId(Number(match[1]), Number(match[2]))
  }

  /** Whether `other` is the same task. */
  equals(other: TaskId): boolean {
    return this.subtopology === other.subtopology && this.partition === other.partition
  }

  /** `<subtopology>_<partition>`, e.g. `0_1`. */
  toString(): string {
    return `${this.subtopology}_${this.partition}`
  }
}
