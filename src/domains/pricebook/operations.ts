import { defineOperation } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { afterPricebookImport } from './next-steps.js'
import { ImportPricebookInput, ImportPricebookResponse, SearchPricebookInput, SearchPricebookResponse } from './schema.js'
import { importPricebook, searchPricebook } from './service.js'
import { MAX_CSV_ROWS } from './csv.js'

export const pricebookOperations = [
  defineOperation({
    name: 'pricebook.search',
    domain: 'pricebook',
    title: 'Search the pricebook',
    description:
      "Search the price book by trade, subcategory and free text (typos tolerated): the company's own items (imported supplier price lists, with cost and sell price in AUD ex GST) first, then the shipped catalogue of 930+ items across ten trades. Catalogue items carry no buy price; a market range only where a dated source supports one, with the source. Each item says where its figures came from.",
    input: SearchPricebookInput,
    output: SearchPricebookResponse,
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => searchPricebook(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'pricebook.import',
    domain: 'pricebook',
    title: 'Import pricebook items',
    description:
      `Import into the company's own price book: a supplier price list as csv text (up to ${MAX_CSV_ROWS} rows; column mapping; buy prices GST-inclusive or ex GST, stored ex GST; sell price = cost plus default_markup_percent), or catalogue items by item_ids, trade or subcategory. Bad rows are reported by line with the reason and the rest imported; importing again updates items by supplier and item code, never duplicating them.`,
    input: ImportPricebookInput,
    output: ImportPricebookResponse,
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: { ...WRITE, idempotentHint: true },
    run: (ctx, input) => importPricebook(ctx.deps, ctx.principal!, input),
    nextSteps: afterPricebookImport,
  }),
]
