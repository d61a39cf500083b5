import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, SEND } from '../../core/annotations.js'
import { listOptOuts } from './opt-outs.js'
import { afterSendEmail, afterSendSms } from './next-steps.js'
import { ListMessagesInput, ListOptOutsInput, MessageListResponse, OptOutListResponse, SendEmailInput, SendResponse, SendSmsInput } from './schema.js'
import { listMessages, sendEmail, sendSms } from './service.js'

const clients = (permission: 'read' | 'write') => ({ scope: 'clients' as const, permission })
const SPAM_ACT = 'Anything promotional takes a marketing message_type.'

export const commsOperations = [
  defineOperation({
    name: 'comms.list',
    domain: 'comms',
    title: 'List messages',
    description:
      'List SMS and email history with delivery status, newest first; filter by channel, message_type, delivery_status, lead_id, job_id or since.',
    input: ListMessagesInput,
    output: MessageListResponse,
    access: clients('read'),
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => listMessages(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'comms.send_sms',
    domain: 'comms',
    title: 'Send an SMS',
    description:
      `Send an SMS to an Australian mobile number (landlines and foreign numbers are refused) and record it in the message history. Returns the message (status queued); comms.list shows it move to sent and delivered. Counts toward the monthly SMS quota. ${SPAM_ACT}`,
    input: SendSmsInput,
    output: SendResponse,
    access: clients('write'),
    cost: 'write',
    annotations: SEND,
    run: (ctx, input) => sendSms(ctx.deps, ctx.principal!, input),
    nextSteps: afterSendSms,
  }),
  defineOperation({
    name: 'comms.send_email',
    domain: 'comms',
    title: 'Send an email',
    description:
      `Send an email (HTML body, sanitised; a plain-text part is derived from it) and record it in the message history. Returns the message (status queued). Counts toward the monthly email quota. ${SPAM_ACT}`,
    input: SendEmailInput,
    output: SendResponse,
    access: clients('write'),
    cost: 'write',
    annotations: SEND,
    run: (ctx, input) => sendEmail(ctx.deps, ctx.principal!, input),
    nextSteps: afterSendEmail,
  }),
]

/** The Spam Act opt-out register: a REST route and a tool (AGENT_PARITY). */
export const commsManagement = [
  defineOperation({
    name: 'comms.opt_outs',
    domain: 'comms',
    title: 'List opt-outs',
    description: 'Numbers and email addresses that opted out of marketing messages (a STOP reply or an unsubscribe link), newest first. Marketing messages to them are recorded as not sent; transactional messages still go.',
    input: ListOptOutsInput,
    output: OptOutListResponse,
    access: clients('read'),
    cost: 'read',
    annotations: READ,
    beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/comms/opt-outs' },
    run: (ctx, input) => listOptOuts(ctx.deps, ctx.principal!, input),
  }),
]
