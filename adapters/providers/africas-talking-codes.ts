import type { DeliveryReport } from '../../core/ports/vendor-adapter.ts';
import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * Africa's Talking SMS codes (developers.africastalking.com/docs/sms/sending/bulk, "Status codes";
 * /docs/sms/notifications, "failureReason") in our terms: the per-recipient `statusCode` of a send
 * (100 Processed, 101 Sent, 102 Queued are accepted) and the `failureReason` of a delivery report.
 */
export const AT_STATUS_CODES: Readonly<Record<number, CodeMeaning>> = {
  401: account('ACCOUNT_RESTRICTED'), // RiskHold: the account's messages are held for review
  402: account('INVALID_SENDER'), // InvalidSenderId
  405: account('VENDOR_BALANCE'), // InsufficientBalance
  403: message('INVALID_NUMBER'), // InvalidPhoneNumber
  404: message('INVALID_NUMBER'), // UnsupportedNumberType
  406: message('UNSUBSCRIBED'), // UserInBlacklist
  407: message('NOT_ROUTABLE'), // CouldNotRoute
  409: message('RECIPIENT_BLOCKED'), // DoNotDisturbRejection
  500: transient('VENDOR_UNAVAILABLE'), // InternalServerError
  501: transient('VENDOR_UNAVAILABLE'), // GatewayError
  502: transient('VENDOR_UNAVAILABLE'), // RejectedByGateway
};

/** AT's status names (the recipient `status`, or `SMSMessageData.Message` of a whole-request refusal) and their codes. */
const AT_STATUS_NAMES: Readonly<Record<string, number>> = {
  riskhold: 401, invalidsenderid: 402, invalidphonenumber: 403, unsupportednumbertype: 404, insufficientbalance: 405,
  userinblacklist: 406, couldnotroute: 407, donotdisturbrejection: 409, internalservererror: 500, gatewayerror: 501, rejectedbygateway: 502,
};

/** The meaning of a status name (`InvalidSenderId` ...), null when it is not one of AT's. */
export function atStatusName(name: string): CodeMeaning | null {
  const code = AT_STATUS_NAMES[name.trim().toLowerCase()];
  return code === undefined ? null : atStatusCode(code);
}

/** Whether a per-recipient `statusCode` means accepted (100 Processed, 101 Sent, 102 Queued). */
export function atAccepted(statusCode: number): boolean {
  return statusCode >= 100 && statusCode <= 102;
}

/** The meaning of a per-recipient `statusCode`; unknown codes end the message as VENDOR_REJECTED. */
export function atStatusCode(statusCode: number): CodeMeaning {
  return AT_STATUS_CODES[statusCode] ?? message('VENDOR_REJECTED');
}

/**
 * Delivery-report `failureReason`s, keyed lower case and as AT spells them: `NotNetworkSubcriber`
 * (sic) is AT's own spelling; the corrected spelling is read too.
 */
export const AT_FAILURE_REASONS: Readonly<Record<string, string>> = {
  insufficientcredit: 'RECIPIENT_NO_CREDIT', // the subscriber lacks airtime for a premium message
  invalidlinkid: 'INVALID_REQUEST', // premium (on-demand) SMS with a wrong linkId
  userisinactive: 'UNREACHABLE',
  userinblacklist: 'UNSUBSCRIBED',
  useraccountsuspended: 'UNREACHABLE', // the subscriber's line is suspended
  notnetworksubcriber: 'INVALID_NUMBER', // AT's spelling: not a subscriber of the network it was routed to
  notnetworksubscriber: 'INVALID_NUMBER',
  usernotsubscribedtoproduct: 'UNSUBSCRIBED', // premium product the user is not subscribed to
  userdoesnotexist: 'INVALID_NUMBER',
  absentsubscriber: 'UNREACHABLE',
  deliveryfailure: 'UNDELIVERED',
};

/** Delivery-report `status` words; Sent, Submitted and Buffered are not final. */
export const AT_STATUSES: Readonly<Record<string, Pick<DeliveryReport, 'status' | 'errorCode'>>> = {
  sent: { status: 'SENT', errorCode: null },
  submitted: { status: 'SENT', errorCode: null },
  buffered: { status: 'SENT', errorCode: null },
  success: { status: 'DELIVERED', errorCode: null },
  rejected: { status: 'FAILED', errorCode: 'REJECTED' },
  failed: { status: 'FAILED', errorCode: 'UNDELIVERED' },
};

/** The error code of a failed delivery report: its `failureReason` when known, else the status word's. */
export function atFailureCode(statusWord: string, failureReason: string | undefined): string {
  const reason = (failureReason ?? '').trim().toLowerCase();
  return AT_FAILURE_REASONS[reason] ?? AT_STATUSES[statusWord.trim().toLowerCase()]?.errorCode ?? 'UNDELIVERED';
}
