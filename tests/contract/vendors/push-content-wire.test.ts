import { expect } from 'chai';
import { Expo, type ExpoPushMessage } from 'expo-server-sdk';
import { apnsPayload } from '../../../adapters/providers/apns-push.ts';
import { expoMessage } from '../../../adapters/providers/expo-push.ts';
import { fcmMessage } from '../../../adapters/providers/fcm-push.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';

const push = { imageUrl: 'https://cdn.example.com/receipt.png', link: 'https://shop.example.com/orders/42', data: { orderId: '42' } };

function message(to: string, overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_push_1', internalMessageId: 'int-push-1', organizationId: 'org-1', channel: 'PUSH',
    to, subject: 'Payment received', body: 'GHS 50.00', senderId: null, push, ...overrides,
  };
}

describe('Contract: push content on each vendor\'s wire (issue 29)', () => {
  it('FCM HTTP v1: notification.title/body/image, string-only data with message_id and link, APNs mutable-content and webpush link', () => {
    // firebase.google.com/docs/reference/fcm/rest/v1/projects.messages: Notification { title, body, image },
    // data "map (key: string, value: string)", ApnsFcmOptions { image }, WebpushFcmOptions { link } ("HTTPS is required").
    const body = fcmMessage(message('fcm-token'), 'Payment received');
    expect(body).to.deep.equal({
      message: {
        token: 'fcm-token',
        notification: { title: 'Payment received', body: 'GHS 50.00', image: push.imageUrl },
        data: { orderId: '42', message_id: 'msg_push_1', link: push.link },
        apns: { payload: { aps: { 'mutable-content': 1 } }, fcm_options: { image: push.imageUrl } },
        webpush: { fcm_options: { link: push.link } },
      },
    });
    expect(Object.values(body.message.data).every((value) => typeof value === 'string')).to.equal(true);
    // A custom-scheme deep link is not a webpush link (FCM requires https there): the app reads data.link.
    const deep = fcmMessage(message('fcm-token', { push: { ...push, link: 'shop://orders/42' } }), null).message;
    expect(deep).to.not.have.property('webpush');
    expect(deep.data['link']).to.equal('shop://orders/42');
    expect(deep.notification).to.not.have.property('title');
  });

  it('APNs: aps.alert {title, body}, mutable-content 1 for an image, custom keys outside aps', () => {
    // developer.apple.com "Generating a remote notification": alert { title, body }, mutable-content 1 lets a
    // notification service extension modify the content; custom keys go at the top level beside aps.
    expect(apnsPayload(message('740f'), 'Payment received')).to.deep.equal({
      aps: { alert: { title: 'Payment received', body: 'GHS 50.00' }, sound: 'default', 'mutable-content': 1 },
      orderId: '42', message_id: 'msg_push_1', link: push.link, image: push.imageUrl,
    });
    expect(apnsPayload(message('740f', { push: null }), null)).to.deep.equal({ aps: { alert: { body: 'GHS 50.00' }, sound: 'default' }, message_id: 'msg_push_1' });
  });

  it('Expo: a message the official SDK accepts as ExpoPushMessage, with title, data and richContent.image', () => {
    const token = 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]';
    // Typed as the SDK's own ExpoPushMessage: a field Expo does not know fails the typecheck.
    const built: ExpoPushMessage = expoMessage(message(token), 'Payment received');
    expect(built).to.deep.equal({
      to: token, title: 'Payment received', body: 'GHS 50.00', data: { url: push.link, orderId: '42', message_id: 'msg_push_1', link: push.link }, sound: 'default',
      richContent: { image: push.imageUrl }, mutableContent: true,
    });
    expect(Expo.isExpoPushToken(built.to)).to.equal(true);
    expect(new Expo().chunkPushNotifications([built])).to.deep.equal([[built]]);
  });
});
