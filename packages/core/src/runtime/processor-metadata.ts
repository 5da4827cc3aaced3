/**
 * KIP-825 processor metadata for DSL processors: small numbers a processor keeps across restarts
 * without a store (an emit-on-window-close aggregation's last emitted window close time),
 * committed with the task's offsets and restored when the task starts. On contexts that are not
 * a task's (a MockProcessorContext) the values live only as long as the returned object. @internal
 */
import type { ProcessingContext } from '../processor/api.js'
import { ProcessorContextImpl } from './processor-context-impl.js'

export interface ProcessorMetadata {
  get(key: string): number | undefined
  set(key: string, value: number): void
}

export function processorMetadata(context: ProcessingContext): ProcessorMetadata {
  if (context instanceof ProcessorContextImpl) {
    return {
      get: key => context.processorMetadataForKey(key),
      set: (key, value) => {
        context.addProcessorMetadataKeyValue(key, value)
      }
    }
  }
  const local = new Map<string, number>()
  return {
    get: key => local.get(key),
    set: (key, value) => {
      local.set(key, value)
    }
  }
}
