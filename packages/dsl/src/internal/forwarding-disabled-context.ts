/**
 * The context a ValueTransformerWithKey gets (Kafka Streams' ForwardingDisabledProcessorContext):
 * everything is the runtime's context except `forward`, which throws, so that a transformer
 * (or a punctuator it scheduled) cannot send records past the operator that runs it. @internal
 */
import { IllegalStateError } from '@kstreams/core'
import type { ProcessingContext } from '@kstreams/core'

const FORWARD_NOT_SUPPORTED =
  'ProcessorContext#forward() is not supported from this context, as the framework must ensure the key is not changed ' +
  '(#forward allows changing the key on messages which are sent). Try another function, which does not allow the key ' +
  'to be changed (for example KTable#transformValues returns the new value instead).'

export function forwardingDisabledContext(context: ProcessingContext): ProcessingContext {
  const forward = (): never => {
    throw new IllegalStateError(FORWARD_NOT_SUPPORTED, { taskId: context.taskId.toString() })
  }
  return new Proxy(context, {
    get(target, property) {
      if (property === 'forward') return forward
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    }
  })
}
