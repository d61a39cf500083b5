// What follows a message sent by hand (core/next-steps.ts): its delivery status in the history. A
// message to an address that opted out was not sent and nothing follows (skipped says why).
import { realCallStep, type NextStep } from '../../core/next-steps.js'

interface SendResult { message: { id: string; channel: string } | null; dry_run: boolean; messages: unknown[]; skipped: string[] }

function afterSend(tool: string, output: SendResult, input: { lead_id?: string; job_id?: string }): NextStep[] {
  if (output.skipped.length) return []
  if (output.dry_run) return output.messages.length ? [realCallStep(tool)] : []
  const by = input.job_id ? `job_id ${input.job_id}` : input.lead_id ? `lead_id ${input.lead_id}` : `channel ${output.message!.channel}`
  return [{ tool: 'comms.list', why: `Check delivery of message ${output.message!.id}: its status moves on from queued to sent and delivered, or failed with the error (filter by ${by}).` }]
}

export const afterSendSms = (output: SendResult, input: { lead_id?: string; job_id?: string }) => afterSend('comms.send_sms', output, input)
export const afterSendEmail = (output: SendResult, input: { lead_id?: string; job_id?: string }) => afterSend('comms.send_email', output, input)
