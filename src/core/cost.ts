// What a call costs in wallet credit, by class. Its own file because both an operation (its cost)
// and Deps (the credit meter that charges it) name it, and operation.ts already imports Deps.
export type CostClass = 'free' | 'read' | 'write'
