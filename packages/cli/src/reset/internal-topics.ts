/**
 * Which topics the reset deletes as the application's internal topics, as Kafka's reset tool
 * infers them: named `<applicationId>-...` and ending like a changelog, a repartition topic or a
 * foreign-key join's subscription topic, and not given as an input or intermediate topic (a user
 * topic may look like an internal one by chance, KAFKA-7930). Unlike Kafka's rule, the name
 * between the application id and the suffix must not be empty (`<id>-changelog` is no store's).
 *
 * The rule is a prefix rule, so a topic of application `foo-bar` (`foo-bar-Counts-changelog`) is
 * also inferred for application `foo`: `otherApplicationIds` names the longer ids a topic could
 * belong to, and `hasGeneratedName` tells the names Kafka Streams generates
 * (`KSTREAM-AGGREGATE-STATE-STORE-0000000003`), which decide between them. @internal
 */

const INTERNAL_SUFFIXES = ['-changelog', '-repartition', '-subscription-registration-topic', '-subscription-response-topic']
const FK_JOIN_TOPIC = /(^|-)KTABLE-FK-JOIN-SUBSCRIPTION-(REGISTRATION|RESPONSE)-\d+-topic$/
/** A processor or store name the DSL generates: `KSTREAM-<OPERATION>-<10-digit index>`, first in the name. */
const GENERATED_NAME = /^(KSTREAM|KTABLE)-[A-Z-]+-\d{10}(-|$)/

/** Whether `topic` is named like an internal topic of `applicationId` (whatever else it may be). */
export function isInternalTopicOf(applicationId: string, topic: string): boolean {
  if (!topic.startsWith(`${applicationId}-`)) return false
  const name = topic.slice(applicationId.length + 1)
  return INTERNAL_SUFFIXES.some(suffix => name.length > suffix.length && name.endsWith(suffix)) || FK_JOIN_TOPIC.test(name)
}

/** The topics of `allTopics` that are the application's internal topics, sorted. */
export function inferInternalTopics(applicationId: string, allTopics: readonly string[], userTopics: ReadonlySet<string>): string[] {
  return allTopics.filter(topic => isInternalTopicOf(applicationId, topic) && !userTopics.has(topic)).sort()
}

/**
 * The longer application ids (`<applicationId>-...`, ending before a dash of the topic) that
 * `topic`, an internal topic of `applicationId`, is also named like an internal topic of,
 * shortest first: `foo-bar` and `foo-bar-x` for `foo-bar-x-Counts-changelog` and `foo`.
 */
export function otherApplicationIds(applicationId: string, topic: string): string[] {
  const ids: string[] = []
  for (let dash = topic.indexOf('-', applicationId.length + 1); dash > 0; dash = topic.indexOf('-', dash + 1)) {
    const id = topic.slice(0, dash)
    if (isInternalTopicOf(id, topic)) ids.push(id)
  }
  return ids
}

/** Whether the name of `topic` after `<applicationId>-` starts with a name the Kafka Streams DSL generates. */
export function hasGeneratedName(applicationId: string, topic: string): boolean {
  return topic.startsWith(`${applicationId}-`) && GENERATED_NAME.test(topic.slice(applicationId.length + 1))
}
