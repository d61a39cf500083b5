import { defineOperation } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { CreateServiceInput, ListServicesInput, ServiceListResponse, ServiceResponse, UpdateServiceInput } from './schema.js'
import { createService, listServices, updateService } from './service.js'
import { afterServiceChange } from './next-steps.js'

export const serviceOperations = [
  defineOperation({
    name: 'services.list',
    domain: 'services',
    title: 'List catalogue services',
    description: "List the company's service catalogue (name, description, category, unit, AUD price ex GST, active or inactive), used for quote line items (service_id). Filter by active, category or text.",
    input: ListServicesInput,
    output: ServiceListResponse,
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/services' },
    run: (ctx, input) => listServices(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'services.create',
    domain: 'services',
    title: 'Add a catalogue service',
    description: 'Add a priced service (AUD per unit, ex GST) to the catalogue so quote line items can reference it by service_id. Active unless active is false.',
    input: CreateServiceInput,
    output: ServiceResponse,
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/services', status: 201, feature: 'restWrite' },
    run: (ctx, input) => createService(ctx.deps, ctx.principal!, input),
    nextSteps: afterServiceChange,
  }),
  defineOperation({
    name: 'services.update',
    domain: 'services',
    title: 'Update a catalogue service',
    description: "Change a service's price, description, or active/inactive state (and name, unit, category); only the fields you provide change. Existing quotes keep their prices.",
    input: UpdateServiceInput,
    output: ServiceResponse,
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: { ...WRITE, idempotentHint: true },
    rest: { method: 'PATCH', path: '/services/:service_id', feature: 'restWrite' },
    run: (ctx, input) => updateService(ctx.deps, ctx.principal!, input),
    nextSteps: afterServiceChange,
  }),
]
