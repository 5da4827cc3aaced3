/**
 * Which topics the reset deletes as the application's internal topics, as Kafka's reset tool
 * infers them: named `<applicationId>-...` and ending like a changelog, a repartition topic or a
 * foreign-key join's subscription topic, and not given as an input or intermediate topic (a user
 * topic may look like an internal one by chance, KAFKA-7930). @internal
 */

const INTERNAL_SUFFIXES = ['-changelog', '-repartition', '-subscription-registration-topic', '-subscription-response-topic']
const FK_JOIN_TOPIC = /.+-KTABLE-FK-JOIN-SUBSCRIPTION-(REGISTRATION|RESPONSE)-\d+-topic$/

/** Whether the name has the shape of a Kafka Streams internal topic (whatever its application). */
export function hasInternalTopicShape(topic: string): boolean {
  return INTERNAL_SUFFIXES.some(suffix => topic.endsWith(suffix)) || FK_JOIN_TOPIC.test(topic)
}

/** The topics of `allTopics` that are the application's internal topics, sorted. */
export function inferInternalTopics(applicationId: string, allTopics: readonly string[], userTopics: ReadonlySet<string>): string[] {
  return allTopics.filter(topic => topic.startsWith(`${applicationId}-`) && hasInternalTopicShape(topic) && !userTopics.has(topic)).sort()
}
