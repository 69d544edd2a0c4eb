import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeMnotifyCampaign {
  /** summary._id, the campaign id delivery reports are asked for. */
  id: string;
  messageId: string;
  recipients: string[];
  sender: string;
  message: string;
  /** What `GET /campaign/{id}` reports; flip it with setStatus. */
  status: string;
  dateSent: string;
}

export interface FakeMnotify extends FakeServer {
  apiKey: string;
  /** Numbers the fake refuses (counted under total_rejected), besides anything not 0XXXXXXXXX or 233XXXXXXXXX. */
  rejectedNumbers: Set<string>;
  balance: { balance: number; bonus: number };
  campaigns: FakeMnotifyCampaign[];
  setStatus(campaignId: string, status: string, dateSent?: string): void;
}

/**
 * A local mNotify BMS API v2 (key in the `key` query parameter): `POST /sms/quick`, `GET /balance/sms`
 * and the delivery report `GET /campaign/{id}`. A wrong key answers 401 `{ status: 'error', code: '4001' }`.
 */
export async function startFakeMnotify(options: { apiKey?: string } = {}): Promise<FakeMnotify> {
  const apiKey = options.apiKey ?? 'mnotify-test-key';
  const rejectedNumbers = new Set<string>();
  const balance = { balance: 7701, bonus: 12 };
  const campaigns: FakeMnotifyCampaign[] = [];

  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.query['key'] !== apiKey) return { status: 401, body: errorBody(401) };
    if (request.method === 'POST' && request.path === '/api/sms/quick') return quick(request);
    if (request.method === 'GET' && request.path === '/api/balance/sms') return { status: 200, body: { status: 'success', ...balance } };
    const found = /^\/api\/campaign\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && found) {
      const campaign = campaigns.find((c) => c.id === decodeURIComponent(found[1]!));
      if (!campaign) return { status: 404, body: { status: 'error', message: 'Campaign not found' } };
      return { status: 200, body: { status: 'success', report: campaign.recipients.map((recipient, i) => ({
        _id: 787239792 + i, recipient, message: campaign.message, status: campaign.status, date_sent: campaign.dateSent,
        campaign_id: campaign.id, message_id: campaign.messageId, retries: 0,
      })) } };
    }
    return { status: 404, body: { status: 'error', message: 'Not found' } };
  };

  const quick = (request: ReceivedRequest): FakeReply => {
    const body = (request.json ?? {}) as Record<string, unknown>;
    const recipient = body['recipient'];
    if (!Array.isArray(recipient) || recipient.length === 0) return { status: 400, body: { status: 'error', message: 'The recipient field is required' } };
    if (typeof body['sender'] !== 'string' || body['sender'] === '' || body['sender'].length > 11) return { status: 400, body: { status: 'error', message: 'Sender ID is invalid' } };
    if (typeof body['message'] !== 'string' || body['message'] === '') return { status: 400, body: { status: 'error', message: 'The message field is required' } };
    const numbers = recipient.map(String);
    const sent = numbers.filter((n) => /^(0\d{9}|233\d{9})$/.test(n) && !rejectedNumbers.has(n));
    const campaign: FakeMnotifyCampaign = {
      id: randomUUID().toUpperCase(), messageId: `20250815${Date.now() % 1_000_000}V2`, recipients: sent, sender: body['sender'],
      message: body['message'], status: 'PENDING', dateSent: '2025-08-15 21:50:53',
    };
    campaigns.push(campaign);
    return { status: 200, body: { status: 'success', code: '2000', message: 'messages sent successfully', summary: {
      _id: campaign.id, message_id: campaign.messageId, type: 'API QUICK SMS', total_sent: sent.length, contacts: numbers.length,
      total_rejected: numbers.length - sent.length, numbers_sent: sent, credit_used: sent.length, credit_left: balance.balance - sent.length,
    } } };
  };

  const server = await startFakeServer({ handle, errorBody });
  return {
    ...server,
    // The base URL, like https://api.mnotify.com/api.
    url: `${server.url}/api`,
    apiKey, rejectedNumbers, balance, campaigns,
    setStatus(campaignId, status, dateSent = '2025-08-15 21:51:40') {
      const campaign = campaigns.find((c) => c.id === campaignId);
      if (!campaign) throw new Error(`fake mNotify: no campaign ${campaignId}`);
      campaign.status = status;
      campaign.dateSent = dateSent;
    },
  };
}

function errorBody(status: number): unknown {
  const bodies: Record<number, unknown> = {
    401: { status: 'error', code: '4001', message: 'Invalid API key' },
    402: { status: 'error', message: 'Insufficient balance' },
    429: { status: 'error', message: 'Too many requests' },
  };
  return bodies[status] ?? { status: 'error', message: status >= 500 ? 'Server error' : `Error ${status}` };
}
