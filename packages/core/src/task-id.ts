import { StreamsError } from './errors.js'

/** The id of a task: sub-topology and partition, printed as `<subtopology>_<partition>`. */
export class TaskId {
  constructor(
    readonly subtopology: number,
    readonly partition: number
  ) {}

  static parse(text: string): TaskId {
    const match = /^(\d+)_(\d+)$/.exec(text)
    if (match === null) throw new StreamsError('ILLEGAL_ARGUMENT', `Task id cannot be parsed correctly from "${text}"`)
    return new TaskId(Number(match[1]), Number(match[2]))
  }

  equals(other: TaskId): boolean {
    return this.subtopology === other.subtopology && this.partition === other.partition
  }

  toString(): string {
    return `${this.subtopology}_${this.partition}`
  }
}
