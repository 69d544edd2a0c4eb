<?php

declare(strict_types=1);

namespace Nkra\Tests;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\Psr7\HttpFactory;
use Nkra\NkraClient;
use Nkra\NkraException;
use Nkra\Tests\Support\CountingTransport;
use PHPUnit\Framework\TestCase;

/**
 * Against a running API (tests/clients/php-client.test.ts starts it: `node hosts/main.ts` on the
 * embedded database). Environment: NKRA_BASE_URL, NKRA_API_KEY (sandbox), NKRA_PROXY_URL (a proxy
 * that drops the first response after the API acted), NKRA_JWT + NKRA_ORGANIZATION_ID (to count
 * delivery logs), NKRA_EVENT (an event slug whose template is "Hi {{name}}, order {{order}} shipped").
 */
final class ClientTest extends TestCase
{
    private NkraClient $client;

    protected function setUp(): void
    {
        if (!getenv('NKRA_BASE_URL')) {
            self::markTestSkipped('NKRA_BASE_URL not set (run through tests/clients/php-client.test.ts)');
        }
        $this->client = new NkraClient(getenv('NKRA_API_KEY'), baseUrl: getenv('NKRA_BASE_URL'), timeout: 10);
    }

    public static function phone(int $n): string
    {
        return sprintf('+23324%07d', 7_000_000 + $n);
    }

    /** @return list<array<string, mixed>> delivery logs of the organization to one recipient (dashboard API) */
    public static function logsTo(string $recipient): array
    {
        $context = stream_context_create(['http' => ['timeout' => 10, 'header' => "Authorization: Bearer " . getenv('NKRA_JWT') . "\r\nX-Organization-Id: " . getenv('NKRA_ORGANIZATION_ID') . "\r\n"]]);
        $page = json_decode((string) file_get_contents(getenv('NKRA_BASE_URL') . '/delivery-logs?limit=100', false, $context), true);
        return array_values(array_filter($page['data']['items'], static fn (array $l) => $l['recipient'] === $recipient));
    }

    public function testSendsOneMessageAndLooksItUp(): void
    {
        $log = $this->client->send(['channel' => 'SMS', 'to' => self::phone(1), 'body' => 'Hello from PHP']);
        self::assertSame(['DELIVERED', 'SMS', self::phone(1), true], [$log['status'], $log['channel'], $log['recipient'], $log['isSandbox']]);
        $detail = $this->client->getMessage($log['id']);
        self::assertSame('Hello from PHP', $detail['body']);
        self::assertContains('DELIVERED', array_column($detail['statusHistory'], 'status'));
    }

    public function testAFraudRejectedSendIsAResultNotAnException(): void
    {
        $log = $this->client->send(['channel' => 'SMS', 'to' => '+448712345678', 'body' => 'x']);
        self::assertSame(['REJECTED', 'FRAUD_PREMIUM_RATE'], [$log['status'], $log['errorCode']]);
    }

    public function testSendsInBulkAndRefusesMoreThan100WithoutCallingTheApi(): void
    {
        $logs = $this->client->sendBulk(['messages' => [
            ['channel' => 'SMS', 'to' => self::phone(2), 'body' => 'one'],
            ['channel' => 'EMAIL', 'to' => 'ama@example.com', 'subject' => 'Hi', 'body' => 'two'],
        ]]);
        self::assertSame([['SMS', 'DELIVERED'], ['EMAIL', 'DELIVERED']], array_map(static fn ($l) => [$l['channel'], $l['status']], $logs));
        $counting = new CountingTransport();
        $client = new NkraClient(getenv('NKRA_API_KEY'), baseUrl: getenv('NKRA_BASE_URL'), transport: $counting);
        try {
            $client->sendBulk(['messages' => array_map(static fn ($i) => ['channel' => 'SMS', 'to' => self::phone(100 + $i), 'body' => 'x'], range(1, 101))]);
            self::fail('101 messages were accepted');
        } catch (NkraException $error) {
            self::assertSame(['VALIDATION_ERROR', 0], [$error->errorCode, $error->status]);
            self::assertStringContainsString('at most 100', $error->fieldErrors()['messages'][0]);
        }
        self::assertSame(0, $counting->calls);
    }

    public function testTriggersAnEvent(): void
    {
        $trigger = $this->client->triggerEvent(['event' => getenv('NKRA_EVENT'), 'to' => self::phone(3), 'variables' => ['name' => 'Kofi', 'order' => 'P-1']]);
        self::assertSame(['DELIVERED', 'SMS', getenv('NKRA_EVENT')], [$trigger['status'], $trigger['channel'], $trigger['event']]);
        self::assertCount(1, $trigger['deliveryLogs']);
        self::assertSame('Hi Kofi, order P-1 shipped', $this->client->getMessage($trigger['deliveryLogs'][0]['id'])['body']);
    }

    public function testSchedulesASendWithSendAtAndCarriesItsCategory(): void
    {
        $sendAt = gmdate('Y-m-d\TH:i:s.000\Z', time() + 3600);
        $log = $this->client->send(['channel' => 'SMS', 'to' => self::phone(10), 'body' => 'Your appointment is tomorrow', 'category' => 'REMINDER', 'sendAt' => $sendAt]);
        self::assertSame(['SCHEDULED', $sendAt, 'REMINDER'], [$log['status'], $log['scheduledAt'], $log['category']]);
    }

    public function testStartsLooksUpChecksAndCancelsAVerification(): void
    {
        $started = $this->client->verify->start(['to' => self::phone(40)]);
        self::assertSame(['PENDING', 'SMS', self::phone(40)], [$started['status'], $started['channel'], $started['to']]);
        self::assertMatchesRegularExpression('/^\d{6}$/', $started['sandboxCode']);
        self::assertCount(1, $this->client->verify->get($started['id'])['sends']);
        $checked = $this->client->verify->check(['id' => $started['id'], 'code' => '0000000000']);
        self::assertSame([false, 'PENDING', 4], [$checked['valid'], $checked['status'], $checked['remainingAttempts']]);
        $byRecipient = $this->client->verify->check(['to' => self::phone(40), 'code' => '0000000000']);
        self::assertSame([$started['id'], 3], [$byRecipient['id'], $byRecipient['remainingAttempts']]);
        self::assertSame('CANCELED', $this->client->verify->cancel($started['id'])['status']);
        try {
            $this->client->verify->resend($started['id']);
            self::fail('a canceled verification was resent');
        } catch (NkraException $error) {
            self::assertSame(['CONFLICT', 409], [$error->errorCode, $error->status]);
        }
        $approved = $this->client->verify->start(['to' => self::phone(41)]);
        $valid = $this->client->verify->check(['id' => $approved['id'], 'code' => $approved['sandboxCode']]);
        self::assertSame([true, 'APPROVED'], [$valid['valid'], $valid['status']]);
    }

    public function testMapsTheErrorEnvelopeToNkraException(): void
    {
        try {
            $this->client->send(['channel' => 'FAX', 'to' => self::phone(4), 'body' => 'x']);
            self::fail('FAX was accepted');
        } catch (NkraException $error) {
            self::assertSame(['VALIDATION_ERROR', 400, 400], [$error->errorCode, $error->status, $error->getCode()]);
            self::assertArrayHasKey('channel', $error->fieldErrors());
            self::assertSame([], $error->formErrors());
            self::assertNotNull($error->requestId);
        }
        try {
            $this->client->triggerEvent(['event' => getenv('NKRA_EVENT')]);
            self::fail('a trigger without a recipient was accepted');
        } catch (NkraException $error) {
            self::assertSame(['to or contactId is required'], $error->formErrors());
        }
        $wrongKey = new NkraClient('nk_test_not-a-real-key', baseUrl: getenv('NKRA_BASE_URL'), timeout: 10);
        try {
            $wrongKey->getMessage('m1');
            self::fail('a wrong key was accepted');
        } catch (NkraException $error) {
            self::assertSame(['UNAUTHORIZED', 401], [$error->errorCode, $error->status]);
        }
    }

    public function testRetriesAfterADroppedConnectionWithTheSameIdempotencyKeyOneMessageNotTwo(): void
    {
        $viaProxy = new NkraClient(getenv('NKRA_API_KEY'), baseUrl: getenv('NKRA_PROXY_URL'), timeout: 10, baseDelay: 0.05);
        $log = $viaProxy->send(['channel' => 'SMS', 'to' => self::phone(6), 'body' => 'sent once']);
        self::assertSame('DELIVERED', $log['status']);
        self::assertSame([$log['id']], array_column(self::logsTo(self::phone(6)), 'id'));
    }

    public function testWorksThroughAPsr18ClientGuzzle(): void
    {
        $factory = new HttpFactory();
        $client = new NkraClient(getenv('NKRA_API_KEY'), baseUrl: getenv('NKRA_BASE_URL'),
            httpClient: new GuzzleClient(['timeout' => 10]), requestFactory: $factory, streamFactory: $factory);
        $log = $client->send(['channel' => 'SMS', 'to' => self::phone(9), 'body' => 'Through Guzzle', 'idempotencyKey' => 'php-psr18-once']);
        self::assertSame('DELIVERED', $log['status']);
        self::assertSame($log['id'], $client->send(['channel' => 'SMS', 'to' => self::phone(9), 'body' => 'Through Guzzle', 'idempotencyKey' => 'php-psr18-once'])['id']);
        self::assertSame('Through Guzzle', $client->getMessage($log['id'])['body']);
        try {
            $client->send(['channel' => 'SMS', 'to' => 'nobody', 'body' => 'x']);
            self::fail('an invalid recipient was accepted');
        } catch (NkraException $error) {
            self::assertSame(['VALIDATION_ERROR', 400], [$error->errorCode, $error->status]);
            self::assertArrayHasKey('to', $error->fieldErrors());
        }
    }
}
