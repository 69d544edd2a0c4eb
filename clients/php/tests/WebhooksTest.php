<?php

declare(strict_types=1);

namespace Nkra\Tests;

use GuzzleHttp\Psr7\ServerRequest;
use Nkra\NkraException;
use Nkra\Webhooks;
use PHPUnit\Framework\TestCase;

/** Webhook signatures: X-Service-Signature and Standard Webhooks (the spec's published test vector), replay refusal, rotation. */
final class WebhooksTest extends TestCase
{
    // The Standard Webhooks spec's example, as in the reference libraries' tests.
    private const MSG_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    private const TIMESTAMP = '1614265330';
    private const PAYLOAD = '{"test": 2432232314}';
    private const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    private const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

    /** @return array<string, string> */
    private static function headers(string $secret = self::SECRET, string $body = self::PAYLOAD): array
    {
        return ['webhook-id' => self::MSG_ID, 'webhook-timestamp' => self::TIMESTAMP, 'webhook-signature' => Webhooks::signStandard(self::MSG_ID, self::TIMESTAMP, $body, $secret),
            'X-Service-Signature' => hash_hmac('sha256', $body, $secret)];
    }

    private static function code(callable $call): array
    {
        try {
            $call();
        } catch (NkraException $error) {
            return [$error->errorCode, $error->status];
        }
        return ['no error', 0];
    }

    public function testVerifiesXServiceSignatureOverTheRawBodyAndParsesTheEvent(): void
    {
        $secret = 'whsec_test_secret';
        $body = json_encode(['id' => 'evt_1', 'kind' => 'message.status.updated', 'occurredAt' => '2026-01-01T00:00:00.000Z', 'data' => ['messageId' => 'm1', 'status' => 'DELIVERED']]);
        $signature = hash_hmac('sha256', $body, $secret);
        self::assertSame($signature, Webhooks::signBody($body, $secret));
        self::assertTrue(Webhooks::verifySignature($body, $signature, $secret));
        self::assertTrue(Webhooks::verifySignature($body, strtoupper($signature), $secret));
        self::assertFalse(Webhooks::verifySignature("{$body} ", $signature, $secret));
        self::assertFalse(Webhooks::verifySignature($body, $signature, 'another-secret'));
        self::assertFalse(Webhooks::verifySignature($body, 'not-hex', $secret));
        self::assertFalse(Webhooks::verifySignature($body, null, $secret));
        $event = Webhooks::parse($body, ['x-service-signature' => $signature, 'X-Service-Event' => 'message.status.updated'], $secret);
        self::assertSame(['message.status.updated', 'evt_1', '2026-01-01T00:00:00.000Z', ['messageId' => 'm1', 'status' => 'DELIVERED']],
            [$event->kind, $event->id, $event->occurredAt, $event->data]);
        self::assertSame(['INVALID_SIGNATURE', 401], self::code(fn () => Webhooks::parse(str_replace('DELIVERED', 'FAILED', $body), ['X-Service-Signature' => $signature], $secret)));
        $unsigned = 'not json';
        self::assertSame(['VALIDATION_ERROR', 0], self::code(fn () => Webhooks::parse($unsigned, ['X-Service-Signature' => hash_hmac('sha256', $unsigned, $secret)], $secret)));
    }

    public function testMatchesTheStandardWebhooksTestVector(): void
    {
        self::assertSame(self::SIGNATURE, Webhooks::signStandard(self::MSG_ID, self::TIMESTAMP, self::PAYLOAD, self::SECRET));
        self::assertTrue(Webhooks::verifyStandardSignature(self::MSG_ID, self::TIMESTAMP, self::PAYLOAD, 'v1,bogus ' . self::SIGNATURE, self::SECRET));
        self::assertTrue(Webhooks::verifyStandardSignature(self::MSG_ID, self::TIMESTAMP, self::PAYLOAD, self::SIGNATURE, strtr(rtrim(self::SECRET, '='), '+/', '-_')));
        self::assertFalse(Webhooks::verifyStandardSignature(self::MSG_ID, '1614265331', self::PAYLOAD, self::SIGNATURE, self::SECRET));
        self::assertFalse(Webhooks::verifyStandardSignature(self::MSG_ID, self::TIMESTAMP, self::PAYLOAD . ' ', self::SIGNATURE, self::SECRET));
        self::assertFalse(Webhooks::verifyStandardSignature(self::MSG_ID, self::TIMESTAMP, self::PAYLOAD, 'v2,' . substr(self::SIGNATURE, 3), self::SECRET));
        self::assertFalse(Webhooks::verifyStandardSignature(self::MSG_ID, self::TIMESTAMP, self::PAYLOAD, self::SIGNATURE, 'whsec_***'));
    }

    public function testVerifyChecksBothSignaturesAndTheTimestamp(): void
    {
        $now = (int) self::TIMESTAMP;
        self::assertSame(['test' => 2432232314], Webhooks::verify(self::PAYLOAD, self::headers(), [self::SECRET], now: $now + 299)->payload);
        self::assertSame(['WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', 401], self::code(fn () => Webhooks::verify(self::PAYLOAD, self::headers(), self::SECRET, now: $now + 301)));
        self::assertSame(['WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', 401], self::code(fn () => Webhooks::verify(self::PAYLOAD, self::headers(), self::SECRET, now: $now - 301)));
        self::assertSame(['INVALID_SIGNATURE', 401],
            self::code(fn () => Webhooks::verify(self::PAYLOAD, ['webhook-signature' => str_replace('g0h', 'g0i', self::SIGNATURE)] + self::headers(), self::SECRET, now: $now)));
        $withoutLegacy = self::headers();
        unset($withoutLegacy['X-Service-Signature']);
        self::assertSame(['INVALID_SIGNATURE', 401], self::code(fn () => Webhooks::verify(self::PAYLOAD, $withoutLegacy, self::SECRET, now: $now)));
        self::assertSame(['INVALID_SIGNATURE', 401], self::code(fn () => Webhooks::verify(self::PAYLOAD, self::headers(), 'whsec_dGhlLW90aGVyLXNlY3JldA==', now: $now)));
        $withoutId = self::headers();
        unset($withoutId['webhook-id']);
        self::assertSame(['INVALID_SIGNATURE', 401], self::code(fn () => Webhooks::verify(self::PAYLOAD, $withoutId, self::SECRET, now: $now)));
    }

    public function testAcceptsTheNewOrThePreviousSecretDuringARotation(): void
    {
        $previous = self::SECRET;
        $new = 'whsec_' . base64_encode(str_repeat("\x07", 32));
        $now = (int) self::TIMESTAMP;
        // During the 24 h overlap: X-Service-Signature with the new secret, -Previous with the old one, two webhook-signature entries (new first).
        $headers = ['webhook-id' => self::MSG_ID, 'webhook-timestamp' => self::TIMESTAMP,
            'webhook-signature' => Webhooks::signStandard(self::MSG_ID, self::TIMESTAMP, self::PAYLOAD, $new) . ' ' . self::SIGNATURE,
            'X-Service-Signature' => hash_hmac('sha256', self::PAYLOAD, $new), 'X-Service-Signature-Previous' => hash_hmac('sha256', self::PAYLOAD, $previous)];
        self::assertSame(['test' => 2432232314], Webhooks::verify(self::PAYLOAD, $headers, $previous, now: $now)->payload);
        self::assertSame(['test' => 2432232314], Webhooks::verify(self::PAYLOAD, $headers, [$new], now: $now)->payload);
        self::assertSame(['test' => 2432232314], Webhooks::verify(self::PAYLOAD, $headers, [$new, $previous], now: $now)->payload);
    }

    public function testReadsHeadersFromAPsr7RequestAndFromListValues(): void
    {
        $now = (int) self::TIMESTAMP;
        $request = new ServerRequest('POST', '/hooks/nkra', self::headers() + ['X-Service-Event' => 'message.status.updated'], self::PAYLOAD);
        $event = Webhooks::verify((string) $request->getBody(), $request, self::SECRET, now: $now);
        self::assertSame('message.status.updated', $event->kind);
        $lists = array_map(static fn ($v) => [$v], self::headers());
        self::assertSame('unknown', Webhooks::verify(self::PAYLOAD, $lists, self::SECRET, now: $now)->kind);
        // A Symfony/Laravel request exposes its headers as a HeaderBag in `$request->headers` (get() is case-insensitive).
        $bag = new class (self::headers()) {
            /** @param array<string, string> $values */
            public function __construct(private array $values)
            {
            }

            public function get(string $name): ?string
            {
                return array_change_key_case($this->values)[strtolower($name)] ?? null;
            }
        };
        $laravelRequest = new class ($bag) {
            public function __construct(public object $headers)
            {
            }
        };
        self::assertSame(['test' => 2432232314], Webhooks::verify(self::PAYLOAD, $laravelRequest, self::SECRET, now: $now)->payload);
        self::assertSame(['test' => 2432232314], Webhooks::verify(self::PAYLOAD, $bag, self::SECRET, now: $now)->payload);
    }
}
