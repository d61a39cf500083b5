// workflows.sync_contact: copies a lead's contact to the connected accounting packages.
import Type from 'typebox'
import { WRITE } from '../../../core/annotations.js'
import { defineOperation } from '../../../core/operation.js'
import { closed, Id } from '../../shared-schema.js'
import { defineFeature } from '../engine/catalogue.js'
import { syncContactAutomation } from './automation.js'
import { syncContact, SyncContactOutput } from './sync-contact.js'

const domain = 'workflows'

const syncContactOperation = defineOperation({
  name: 'workflows.sync_contact', domain, title: 'Sync a contact',
  description:
    "Copy a lead's or client's contact details to the connected accounting packages now: a contact already there is matched (email, then name) and linked, never duplicated; otherwise it is created. Says per connection what happened. When no accounting integration is connected it pushes nothing and says so (connect one with integrations.connect); the run is recorded either way (workflows.list).",
  input: Type.Object(
    {
      lead_id: Id('Lead or client to sync'),
      connection_id: Type.Optional(Id('Only this connection; all active connections that hold contacts when omitted')),
    },
    closed,
  ),
  output: SyncContactOutput,
  access: { permission: 'write' }, cost: 'write', annotations: WRITE,
  run: (ctx, input) => syncContact(ctx.deps, ctx.principal!, input),
})

export const syncContactFeature = defineFeature({ name: 'sync-contact', automations: [syncContactAutomation], operations: [syncContactOperation] })
