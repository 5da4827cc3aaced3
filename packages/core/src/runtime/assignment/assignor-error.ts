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
