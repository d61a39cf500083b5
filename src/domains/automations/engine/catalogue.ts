// The automations a company can turn on and off (workflows.list, workflows.toggle). Each automation
// folder defines its own entry with defineAutomation (its key, what it does, its settings schema and
// defaults); automations/index.ts lists the features, and the catalogue is assembled from that list.
// The key is what automation_settings.automation and automation_runs.automation hold. An
// automation's settings are part of its workflow's input (the policy), so tests run the real
// workflow with short delays. Settings are read through the entry itself (automationChoice(tx,
// entry)), so their type is the schema's Static type and an unknown automation cannot be named.
import type { Static, TSchema } from 'typebox'
import Type from 'typebox'
import type { Deps } from '../../../core/deps.js'
import type { ActivityFactory } from '../../../core/domain.js'
import type { AnyOperation } from '../../../core/operation.js'
import type { Reaction } from '../../../core/reactions.js'
import { StringEnum } from '../../../core/schema-helpers.js'
import type { AnyWorkflowDefinition } from '../../../temporal/contract.js'

export const closed = { additionalProperties: false } as const

export type ChannelChoice = 'sms' | 'email' | 'both'
export const ChannelChoiceSchema = StringEnum(['sms', 'email', 'both'] as const, { description: 'How to reach the client: sms, email or both (default: SMS to an Australian mobile, otherwise email)' })

export const DEFAULT_APPROVAL_EXPIRY_HOURS = 48

/** How long an action waits for approval before it expires, executing nothing (every automation that supports approval). */
export const ApprovalExpiryHours = Type.Integer({
  minimum: 1, maximum: 720, default: DEFAULT_APPROVAL_EXPIRY_HOURS, description: 'Hours an action waits in workflows.pending_actions before it expires unsent (1-720, default 48)',
})

export const NoSettings = Type.Object({}, closed)

export interface AutomationEntry<S extends TSchema = TSchema> {
  key: string
  /** The tool that runs it on demand (also its name in workflows.list). */
  tool: string
  title: string
  trigger: string
  action: string
  /** On for a new company. */
  enabledByDefault: boolean
  settings: S
  /** Its actions can wait for approval (workflows.toggle require_approval; workflows.pending_actions). */
  supportsApproval?: boolean
}

/** The settings of an automation, defaults filled in: its schema's static type. */
export type SettingsOf<E extends AutomationEntry> = Static<E['settings']>

export function defineAutomation<const S extends TSchema>(entry: AutomationEntry<S>): AutomationEntry<S> {
  return entry
}

/**
 * One automation feature (a folder): the catalogue entries it adds, its tools, the activities and
 * workflow definitions its runs need, and its reactions to domain events (core/reactions.ts).
 */
export interface AutomationFeature {
  name: string
  automations: AutomationEntry[]
  operations: AnyOperation[]
  activities?: ActivityFactory
  workflows?: readonly AnyWorkflowDefinition[]
  reactions?: Reaction[]
}

/** Keeps a feature's own types (its activities' names and inputs reach the workflows' Activities type). */
export function defineFeature<const F extends AutomationFeature>(feature: F): F {
  return feature
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

/** The merged activities of a feature list, typed. */
export type FeatureActivities<F extends readonly AutomationFeature[]> = UnionToIntersection<
  { [K in keyof F]: F[K]['activities'] extends ActivityFactory ? ReturnType<F[K]['activities']> : never }[number]
>

/** One activity factory for a feature list; an activity name defined twice is refused. */
export function featureActivities<const F extends readonly AutomationFeature[]>(features: F): (deps: Deps) => FeatureActivities<F> {
  return (deps) => {
    const all: Record<string, unknown> = {}
    for (const f of features) {
      for (const [name, fn] of Object.entries(f.activities?.(deps) ?? {})) {
        if (name in all) throw new Error(`Activity defined twice: ${name} (automation ${f.name})`)
        all[name] = fn
      }
    }
    return all as FeatureActivities<F>
  }
}

/** The workflow definitions of a feature list, each keeping its type (so its activity interface). */
export type FeatureWorkflow<F extends readonly AutomationFeature[]> = {
  [K in keyof F]: F[K]['workflows'] extends readonly AnyWorkflowDefinition[] ? F[K]['workflows'][number] : never
}[number]

export function featureWorkflows<const F extends readonly AutomationFeature[]>(features: F): FeatureWorkflow<F>[] {
  return features.flatMap((f) => (f.workflows ?? []) as FeatureWorkflow<F>[])
}

/** The catalogue of a feature list, in its order; a key or tool listed twice is refused. */
export class AutomationCatalogue {
  constructor(readonly entries: readonly AutomationEntry[]) {
    const seen = new Set<string>()
    for (const e of entries) {
      for (const name of [e.key, e.tool]) {
        if (seen.has(name)) throw new Error(`Automation listed twice: ${name}`)
        seen.add(name)
      }
    }
  }

  /** The automation named by its key or its tool name. */
  find(ref: string): AutomationEntry | undefined {
    return this.entries.find((a) => a.key === ref || a.tool === ref)
  }

  get keys(): string[] {
    return this.entries.map((a) => a.key)
  }
}
