// Team notices, on request; the first automation whose actions can wait for approval.
import { defineFeature } from '../engine/catalogue.js'
import { teamNotifyAutomation } from './automation.js'
import { teamNotifyOperation } from './operation.js'
import { finishTeamNotify, teamNotifyDefinition } from './team-notify.js'

export const teamNotifyFeature = defineFeature({
  name: 'team-notify',
  automations: [teamNotifyAutomation],
  operations: [teamNotifyOperation],
  activities: (deps) => ({
    finishTeamNotify: (input: Parameters<typeof finishTeamNotify>[1]) => finishTeamNotify(deps, input),
  }),
  workflows: [teamNotifyDefinition],
})
