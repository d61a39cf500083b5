import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, WRITE } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { closed, Id, Paging } from './shared.js'

const capability = 'Quotes, jobs and clients'
const Unit = StringEnum(['each', 'hour', 'metre', 'square_metre', 'fixed'] as const, { description: 'What the price is per' })

export const servicesPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'services.list',
    title: 'List catalog services',
    description:
      "List the company's service catalog (name, description, category, price in AUD, unit, active or inactive), used to build quote line items. Filter by active state, category or text. Cursor-paginated.",
    input: Type.Object(
      {
        active: Type.Optional(Type.Boolean({ description: 'true for active services only, false for inactive only; omit for all' })),
        category: Type.Optional(Type.String({ description: 'Only services in this category' })),
        search: Type.Optional(Type.String({ minLength: 1, description: 'Text to find in the name or description' })),
        ...Paging,
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'services.create',
    title: 'Add a catalog service',
    description: 'Add a service to the catalog with its AUD price, so it can be used on quote line items (service_id). New services are active unless active is false.',
    input: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200, description: 'Service name, e.g. "Blocked drain clearing"' }),
        description: Type.Optional(Type.String({ maxLength: 2000, description: 'Description shown on quotes' })),
        price: Type.Optional(Dollars({ minimum: 0, description: 'Price in AUD dollars per unit' })),
        unit: Type.Optional(Unit),
        category: Type.Optional(Type.String({ maxLength: 100, description: 'Category, e.g. drainage, hot water, switchboards' })),
        duration_minutes: Type.Optional(Type.Integer({ minimum: 1, description: 'Typical time the service takes' })),
        active: Type.Optional(Type.Boolean({ default: true, description: 'Whether the service is offered' })),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'services.update',
    title: 'Update a catalog service',
    description: "Change a catalog service's price, description, or active/inactive state (and other fields); only the fields you provide change. Existing quotes keep their prices.",
    input: Type.Object(
      {
        service_id: Id('Service to update'),
        price: Type.Optional(Dollars({ minimum: 0, description: 'New price in AUD dollars per unit' })),
        description: Type.Optional(Type.String({ maxLength: 2000, description: 'New description' })),
        active: Type.Optional(Type.Boolean({ description: 'true to offer the service, false to make it inactive' })),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'New name' })),
        unit: Type.Optional(Unit),
        category: Type.Optional(Type.String({ maxLength: 100, description: 'New category' })),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
]
