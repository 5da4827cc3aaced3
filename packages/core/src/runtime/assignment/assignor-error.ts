/**
 * The error codes an assignment carries to every member (Kafka Streams' AssignorError). A member
 * that receives anything but NONE must not start processing. @internal
 */
export const AssignorError = {
  NONE: 0,
  /** A source topic is missing from the cluster metadata. */
  INCOMPLETE_SOURCE_TOPIC_METADATA: 1,
  /** Legacy version probing; never sent by this assignor, reserved for wire compatibility of the code space. */
  VERSION_PROBING: 2,
  /** The leader could not compute an assignment (e.g. topics not co-partitioned). */
  ASSIGNMENT_ERROR: 3,
  /** A member asked the whole application to shut down. */
  SHUTDOWN_REQUESTED: 4
} as const

export type AssignorErrorCode = (typeof AssignorError)[keyof typeof AssignorError]

const codes = new Set<number>(Object.values(AssignorError))

export function isAssignorErrorCode(code: number): code is AssignorErrorCode {
  return codes.has(code)
}

const DESCRIPTIONS: Record<AssignorErrorCode, string> = {
  0: 'NONE',
  1: 'the group leader found no metadata for a source topic (its log names the topic)',
  2: 'the group leader could not read a rebalance metadata version',
  3: 'the group leader could not compute a task assignment (its log says why)',
  4: 'an instance of the application failed and asked every instance to shut down'
}

/** What an error code means, as Kafka Streams describes it (for assignments from a Java leader, which carry no message). */
export function describeAssignorError(code: AssignorErrorCode): string {
  return DESCRIPTIONS[code]
}
