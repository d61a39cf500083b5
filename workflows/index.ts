// Every workflow the worker runs is exported here. Deterministic code only: no I/O, no Node
// built-ins, no values from src/ (enforced by ESLint).
export { trialLifecycle } from './trial-lifecycle.js'
export { instantResponse } from './instant-response.js'
export { deliverMessages } from './deliver-messages.js'
export { webhookDelivery } from './webhook-delivery.js'
