/** The name of a DSL operator (Kafka Streams' `Named`): overrides the generated processor name. */
import { StreamsError } from '@kstreams/core'

const LEGAL = /^[a-zA-Z0-9._-]+$/
const MAX_NAME_LENGTH = 249

/** The name of a DSL operator (Kafka Streams' Named): overrides the generated processor name. */
export class Named {
  private constructor(
    /** The name. */
    readonly name: string
  ) {}

  /** A processor name: at most 249 characters of ASCII alphanumerics, '.', '_' and '-'. */
  static as(name: string): Named {
    return new Named(validateName(name))
  }

  /** Another name (Named.as). */
  withName(name: string): Named {
    return Named.as(name)
  }
}

export function validateName(name: string): string {
  if (typeof name !== 'string' || name.length === 0) throw new StreamsError('ILLEGAL_ARGUMENT', "Name is illegal, it can't be empty")
  if (name.length > MAX_NAME_LENGTH)
    throw new StreamsError('ILLEGAL_ARGUMENT', `Name is illegal, it can't be longer than ${MAX_NAME_LENGTH} characters, name: ${name}`)
  if (!LEGAL.test(name))
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Name "${name}" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`
    )
  return name
}
