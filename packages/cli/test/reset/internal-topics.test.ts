/**
 * The internal topics of an application, inferred by name as StreamsResetter.isInternalTopic
 * does (a name between the id and the suffix, unlike Kafka's rule), and the longer application
 * ids the same name fits: the prefix hazard of the reset (`foo-bar-Counts-changelog` is named
 * like an internal topic of `foo` and of `foo-bar`).
 */
import { expect } from 'chai'
import { hasGeneratedName, inferInternalTopics, isInternalTopicOf, otherApplicationIds } from '../../src/reset/internal-topics.js'

describe('internal topics of an application', () => {
  it("have the shapes of Kafka's internal topics, with a name between the application id and the suffix", () => {
    for (const topic of [
      'a-x-changelog',
      'a-x-repartition',
      'a-x-subscription-registration-topic',
      'a-x-subscription-response-topic',
      'a-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic',
      'a-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000012-topic'
    ])
      expect(isInternalTopicOf('a', topic), topic).to.equal(true)
    for (const topic of [
      'a-x',
      'a-changelog-x',
      'a-x-changelogs',
      'a-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-topic',
      'a-changelog',
      'a--changelog',
      'ab-x-changelog',
      'b-a-x-changelog'
    ])
      expect(isInternalTopicOf('a', topic), topic).to.equal(false)
  })

  it('are inferred by the application id prefix, leaving out the input and intermediate topics given (KAFKA-7930)', () => {
    const all = [
      'app-Counts-changelog',
      'app-Counts-repartition',
      'app2-Counts-changelog',
      'other-app-x-changelog',
      'app-user-changelog',
      'app-input',
      'appCounts-changelog'
    ]
    expect(inferInternalTopics('app', all, new Set(['app-user-changelog']))).to.deep.equal([
      'app-Counts-changelog',
      'app-Counts-repartition'
    ])
  })

  it('fit the longer application ids that end before a dash and leave a name before the suffix, shortest first', () => {
    expect(otherApplicationIds('foo', 'foo-bar-Counts-changelog')).to.deep.equal(['foo-bar'])
    expect(otherApplicationIds('foo', 'foo-bar-x-Counts-repartition')).to.deep.equal(['foo-bar', 'foo-bar-x'])
    expect(otherApplicationIds('foo', 'foo-Counts-changelog')).to.deep.equal([])
    // A store named after its application: the prefix twice.
    expect(otherApplicationIds('foo', 'foo-foo-Counts-changelog')).to.deep.equal(['foo-foo'])
    // A shorter id is not another application of this reset.
    expect(otherApplicationIds('foo-bar', 'foo-bar-Counts-changelog')).to.deep.equal([])
    expect(otherApplicationIds('foo', 'foo-bar-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic')).to.deep.equal(['foo-bar'])
  })

  it('tell the names the DSL generates after an application id', () => {
    const generated = 'foo-bar-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog'
    expect(hasGeneratedName('foo-bar', generated)).to.equal(true)
    expect(hasGeneratedName('foo', generated)).to.equal(false)
    expect(hasGeneratedName('foo', 'foo-KSTREAM-JOINTHIS-0000000004-store-changelog')).to.equal(true)
    expect(hasGeneratedName('foo', 'foo-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic')).to.equal(true)
    for (const topic of ['foo-Counts-changelog', 'foo-KSTREAM-Counts-changelog', 'foo-KSTREAM-AGGREGATE-3-changelog'])
      expect(hasGeneratedName('foo', topic), topic).to.equal(false)
  })
})
