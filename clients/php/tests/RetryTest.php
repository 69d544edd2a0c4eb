<?php

declare(strict_types=1);

namespace Nkra\Tests;

use Nkra\NkraClient;
use Nkra\NkraException;
use Nkra\Tests\Support\StubServer;
use PHPUnit\Framework\TestCase;

/** Retries, timeouts and the request shapes of every method, against a local stub of the API over real HTTP. */
final class RetryTest extends TestCase
{
    private static StubServer $stub;
    private NkraClient $client;

    public static function setUpBeforeClass(): void
    {
        self::$stub = new StubServer();
    }

    public static function tearDownAfterClass(): void
    {
        self::$stub->close();
    }

    protected function setUp(): void
    {
        self::$stub->reset();
        $this->client = new NkraClient('nk_test_stub', baseUrl: self::$stub->url, timeout: 5, baseDelay: 0.01, maxDelay: 0.05);
    }

    public function testRetries503And429HonoringRetryAfterWithOneIdempotencyKey(): void
    {
        self::$stub->queue(StubServer::fail(503, 'SERVICE_UNAVAILABLE', [], ['Retry-After' => '0']), StubServer::fail(429, 'RATE_LIMITED', [], ['Retry-After' => '0']),
            StubServer::ok(['id' => 'm1', 'status' => 'SENT'], 201), StubServer::ok(['id' => 'm2', 'status' => 'SENT'], 201));
        self::assertSame('m1', $this->client->send(['channel' => 'SMS', 'to' => '+233241234567', 'body' => 'x'])['id']);
        self::assertSame('m2', $this->client->send(['channel' => 'SMS', 'to' => '+233241234567', 'body' => 'x'])['id']);
        $keys = array_map(static fn ($s) => $s['body']['idempotencyKey'], self::$stub->seen());
        self::assertCount(4, $keys);
        self::assertSame([$keys[0], $keys[0]], [$keys[1], $keys[2]]);
        self::assertNotSame($keys[0], $keys[3]);
        self::assertMatchesRegularExpression('/^nkc-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $keys[0]);
        self::assertSame('nk_test_stub', self::$stub->seen()[0]['apiKey']);
    }

    public function testEveryWriteCarriesAnIdempotencyKeyAndKeepsTheCallersOwn(): void
    {
        self::$stub->queue(StubServer::ok([], 201), StubServer::ok(['id' => 't1'], 201), StubServer::ok(['id' => 'v1'], 201), StubServer::ok(['id' => 'm9'], 201));
        $this->client->sendBulk(['messages' => [['channel' => 'SMS', 'to' => '+233241234567', 'body' => 'x', 'variables' => []]]]);
        $this->client->triggerEvent(['event' => 'order.shipped', 'to' => '+233241234567', 'variables' => []]);
        $this->client->verify->start(['to' => '+233241234567']);
        $this->client->send(['channel' => 'SMS', 'to' => '+233241234567', 'body' => 'x', 'idempotencyKey' => 'order-42']);
        $seen = self::$stub->seen();
        self::assertSame(['/messages/bulk', '/events/trigger', '/verify/start', '/messages/send'], array_column($seen, 'path'));
        foreach (array_slice($seen, 0, 3) as $request) {
            self::assertMatchesRegularExpression('/^nkc-/', $request['body']['idempotencyKey']);
        }
        self::assertSame('order-42', $seen[3]['body']['idempotencyKey']);
        self::assertStringContainsString('"variables":{}', self::$stub->rawBodies()[0]);
        self::assertStringContainsString('"variables":{}', self::$stub->rawBodies()[1]);
    }

    public function testDoesNotRetryOther4xxNorWhenRetriesAreOff(): void
    {
        self::$stub->queue(StubServer::fail(402, 'INSUFFICIENT_BALANCE'), StubServer::fail(503, 'SERVICE_UNAVAILABLE'));
        $codes = [];
        foreach ([$this->client, new NkraClient('nk_test_stub', baseUrl: self::$stub->url, maxRetries: 0)] as $client) {
            try {
                $client->send(['channel' => 'SMS', 'to' => '+233241234567', 'body' => 'x']);
            } catch (NkraException $error) {
                $codes[] = [$error->errorCode, $error->status];
            }
        }
        self::assertSame([['INSUFFICIENT_BALANCE', 402], ['SERVICE_UNAVAILABLE', 503]], $codes);
        self::assertCount(2, self::$stub->seen());
    }

    public function testARetryAfterLongerThanMaxRetryAfterIsThrownAtOnce(): void
    {
        self::$stub->queue(StubServer::fail(429, 'VERIFY_RATE_LIMITED', ['rule' => 'recipient'], ['Retry-After' => '3600']));
        $started = microtime(true);
        try {
            $this->client->verify->start(['to' => '+233241234567']);
            self::fail('no error');
        } catch (NkraException $error) {
            self::assertSame(['VERIFY_RATE_LIMITED', 429, 3600.0, 'req-1', ['rule' => 'recipient']],
                [$error->errorCode, $error->status, $error->retryAfter, $error->requestId, $error->details]);
        }
        self::assertLessThan(2, microtime(true) - $started);
        self::assertCount(1, self::$stub->seen());
    }

    public function testNeverRetriesAResend(): void
    {
        self::$stub->queue(StubServer::fail(429, 'VERIFY_RESEND_COOLDOWN', [], ['Retry-After' => '1']), StubServer::ok(['id' => 'v1']));
        try {
            $this->client->verify->resend('v1');
            self::fail('no error');
        } catch (NkraException $error) {
            self::assertSame(['VERIFY_RESEND_COOLDOWN', 1.0], [$error->errorCode, $error->retryAfter]);
        }
        self::assertCount(1, self::$stub->seen());
    }

    public function testSendsVerifyRequestsAsDocumentedWithTheIdEscaped(): void
    {
        self::$stub->queue(StubServer::ok(['id' => 'v1', 'valid' => false]), StubServer::ok(['id' => 'v1']), StubServer::ok(['status' => 'CANCELED']),
            StubServer::ok(['channel' => 'VOICE']));
        self::assertFalse($this->client->verify->check(['to' => '0241234567', 'countryCode' => 'GH', 'code' => '482913'])['valid']);
        $this->client->verify->get('v1');
        self::assertSame('CANCELED', $this->client->verify->cancel('v/1')['status']);
        $this->client->verify->resend('v1', ['channel' => 'VOICE']);
        self::assertSame([
            ['POST', '/verify/check', ['to' => '0241234567', 'countryCode' => 'GH', 'code' => '482913']],
            ['GET', '/verify/v1', null],
            ['POST', '/verify/v%2F1/cancel', []],
            ['POST', '/verify/v1/resend', ['channel' => 'VOICE']],
        ], array_map(static fn ($s) => [$s['method'], $s['path'], $s['body']], self::$stub->seen()));
        self::assertSame('{}', self::$stub->rawBodies()[2]);
    }

    public function testATimeoutIsRetriedThenThrownAsTimeout(): void
    {
        // A server of its own: `php -S` answers one request at a time, so the slow ones would hold up the next test.
        $slow = new StubServer();
        try {
            $slow->queue(['status' => 200, 'body' => ['success' => true, 'data' => []], 'sleep' => 1.0], ['status' => 200, 'body' => ['success' => true, 'data' => []], 'sleep' => 1.0]);
            $client = new NkraClient('nk_test_stub', baseUrl: $slow->url, timeout: 0.3, maxRetries: 1, baseDelay: 0.01);
            $client->getMessage('m1');
            self::fail('no timeout');
        } catch (NkraException $error) {
            self::assertSame(['TIMEOUT', 0], [$error->errorCode, $error->status]);
        } finally {
            $slow->close();
        }
    }

    public function testANetworkErrorIsRetriedThenThrown(): void
    {
        $client = new NkraClient('nk_test_stub', baseUrl: 'http://127.0.0.1:' . StubServer::freePort(), maxRetries: 1, baseDelay: 0.01, timeout: 2);
        try {
            $client->getMessage('m1');
            self::fail('no error');
        } catch (NkraException $error) {
            self::assertSame(['NETWORK_ERROR', 0], [$error->errorCode, $error->status]);
        }
    }

    public function testAnAnswerThatIsNotTheEnvelopeIsAnHttpError(): void
    {
        self::$stub->queue(['status' => 404, 'body' => 'not json at all']);
        try {
            $this->client->getMessage('m1');
            self::fail('no error');
        } catch (NkraException $error) {
            self::assertSame(['HTTP_404', 404, 'HTTP 404'], [$error->errorCode, $error->status, $error->getMessage()]);
        }
    }

    public function testParsesRetryAfter(): void
    {
        self::assertSame(2.0, NkraClient::parseRetryAfter('2'));
        self::assertNull(NkraClient::parseRetryAfter(null));
        self::assertNull(NkraClient::parseRetryAfter('soon'));
        self::assertEqualsWithDelta(30.0, NkraClient::parseRetryAfter(gmdate('D, d M Y H:i:s \G\M\T', time() + 30)), 2.0);
    }

    public function testRefusesAnEmptyApiKey(): void
    {
        $this->expectException(NkraException::class);
        new NkraClient('');
    }
}
