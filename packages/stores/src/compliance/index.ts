/**
 * `@kstreams/stores/compliance`: the store contract tests any backend runs with its own harness
 * (mocha BDD globals and chai are needed at runtime), plus the test context and harness helpers
 * they are built on.
 * @module \@kstreams/stores/compliance
 */
export { keyValueStoreCompliance } from './key-value/index.js'
export { windowStoreCompliance } from './window/index.js'
export { sessionStoreCompliance } from './session/index.js'
export { versionedStoreCompliance } from './versioned/index.js'
export type { VersionedStoreHarness } from './versioned/index.js'
export type { StoreHarness, KeyValueStoreHarness, WindowStoreHarness, SessionStoreHarness } from './harness.js'
export { createKeyValueStackHarness } from './key-value-stack-harness.js'
export type { KeyValueStackHarness, KeyValueStackHarnessOptions } from './key-value-stack-harness.js'
export { TestStoreContext, createTestStoreContext } from './test-context.js'
export type { CapturedChangelogRecord, StoreRegistration, TestStoreContextOptions } from './test-context.js'
export { codeOf } from './expect-code.js'
export { windowStackHarness, sessionStackHarness } from './windowed-stack-harness.js'
export type { StackOptions, StackHarnessExtras, WindowStackOptions, SessionStackOptions } from './windowed-stack-harness.js'
