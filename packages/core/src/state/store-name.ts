/**
 * Store-name validation. A store name becomes part of its changelog topic
 * (`<application.id>-<name>-changelog`) and of a directory name under the state directory, so it
 * must be a legal Kafka topic name fragment and must not escape the directory.
 */
import { StreamsError } from '../errors.js'

/** Kafka's topic-name limit; a store name can never be longer than the topic it becomes part of. */
const MAX_STORE_NAME_LENGTH = 249
const LEGAL_STORE_NAME = /^[a-zA-Z0-9._-]+$/

/**
 * Returns the name when it is a legal store name: non-empty, at most 249 characters of
 * `[a-zA-Z0-9._-]`, and neither `.` nor `..`. Otherwise throws ILLEGAL_ARGUMENT naming the store.
 */
export function validateStoreName(name: string): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store name must be a non-empty string, got ${JSON.stringify(name)}`)
  }
  if (name.length > MAX_STORE_NAME_LENGTH) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store name "${name}" is longer than ${MAX_STORE_NAME_LENGTH} characters`)
  }
  if (!LEGAL_STORE_NAME.test(name) || name === '.' || name === '..') {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Store name "${name}" is illegal: use only ASCII letters, digits, '.', '_' and '-', and not "." or ".."`
    )
  }
  return name
}
