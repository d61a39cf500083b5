import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, WRITE } from '../../core/planned.js'
import { closed, Id, Paging, Trade } from '../shared-schema.js'

const capability = 'Pricebook and marketing'

export const pricebookPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'pricebook.search',
    title: 'Search the pricebook',
    description:
      'Search the supplier product catalog (930+ items) by trade, subcategory and free text; returns items with supplier, unit and cost price in AUD.',
    input: Type.Object(
      {
        query: Type.Optional(Type.String({ minLength: 1, description: 'Free text, e.g. "20mm copper elbow"' })),
        trade: Type.Optional(Trade('Only items for this trade')),
        subcategory: Type.Optional(Type.String({ description: 'Only items in this subcategory, e.g. hot water, cable, fittings' })),
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
    name: 'pricebook.import',
    title: 'Import pricebook items',
    description:
      "Import pricebook items into the company's service catalog, selling price = cost plus markup. Give item_ids, or a trade and/or subcategory to import all of its items; default_markup_percent applies the markup (parts markups of 20-40% are typical for plumbers).",
    input: Type.Object(
      {
        item_ids: Type.Optional(Type.Array(Id('Pricebook item id'), { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'Items to import (see pricebook.search)' })),
        trade: Type.Optional(Trade('Import every item of this trade')),
        subcategory: Type.Optional(Type.String({ description: 'Import every item of this subcategory' })),
        default_markup_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 500, description: 'Markup on cost in percent, e.g. 30' })),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
]
