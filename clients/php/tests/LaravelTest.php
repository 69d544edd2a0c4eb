<?php

declare(strict_types=1);

namespace Nkra\Tests;

use Illuminate\Notifications\ChannelManager;
use Illuminate\Support\ServiceProvider;
use Nkra\Laravel\ClientFactory;
use Nkra\Laravel\NkraChannel;
use Nkra\Laravel\NkraMessage;
use Nkra\Laravel\NkraServiceProvider;
use Nkra\NkraClient;
use Nkra\NkraException;
use Nkra\Tests\Support\FakeContainer;
use PHPUnit\Framework\TestCase;

/**
 * The Laravel notification channel against the real API, with minimal stand-ins for a notifiable
 * (routeNotificationFor, as the Notifiable trait) and a notification (toNkra, Laravel's `id`);
 * the service provider with the few Illuminate classes it touches faked when Laravel is absent.
 */
final class LaravelTest extends TestCase
{
    private NkraClient $client;
    private NkraChannel $channel;

    protected function setUp(): void
    {
        if (!getenv('NKRA_BASE_URL')) {
            self::markTestSkipped('NKRA_BASE_URL not set (run through tests/clients/php-client.test.ts)');
        }
        $this->client = new NkraClient(getenv('NKRA_API_KEY'), baseUrl: getenv('NKRA_BASE_URL'), timeout: 10);
        $this->channel = new NkraChannel($this->client);
    }

    private static function notifiable(?string $phone): object
    {
        return new class ($phone) {
            public function __construct(public ?string $phone)
            {
            }

            public function routeNotificationFor(string $driver, object $notification): ?string
            {
                return $driver === 'nkra' ? $this->phone : null;
            }
        };
    }

    /** @param \Closure(object): mixed $toNkra */
    private static function notification(\Closure $toNkra, ?string $id = null): object
    {
        return new class ($toNkra, $id) {
            public function __construct(private \Closure $toNkra, public ?string $id)
            {
            }

            public function via(object $notifiable): array
            {
                return ['nkra'];
            }

            public function toNkra(object $notifiable): mixed
            {
                return ($this->toNkra)($notifiable);
            }
        };
    }

    public function testSendsAMessageToTheNotifiablesRoute(): void
    {
        $log = $this->channel->send(self::notifiable(ClientTest::phone(20)), self::notification(fn () => NkraMessage::create('Your order has shipped')));
        self::assertSame(['DELIVERED', ClientTest::phone(20)], [$log['status'], $log['recipient']]);
        self::assertSame('Your order has shipped', $this->client->getMessage($log['id'])['body']);
        $plain = $this->channel->send(self::notifiable(ClientTest::phone(21)), self::notification(fn () => 'A plain string is an SMS'));
        self::assertSame(['SMS', 'DELIVERED'], [$plain['channel'], $plain['status']]);
        $email = $this->channel->send(self::notifiable(null), self::notification(fn () => NkraMessage::create('Receipt attached')->channel('EMAIL')->to('kofi@example.com')->subject('Receipt')));
        self::assertSame(['EMAIL', 'kofi@example.com'], [$email['channel'], $email['recipient']]);
    }

    public function testTriggersAnEventWithItsVariables(): void
    {
        $trigger = $this->channel->send(self::notifiable(ClientTest::phone(22)),
            self::notification(fn () => NkraMessage::event(getenv('NKRA_EVENT'))->variables(['name' => 'Esi', 'order' => 'L-7'])));
        self::assertSame('DELIVERED', $trigger['status']);
        self::assertSame('Hi Esi, order L-7 shipped', $this->client->getMessage($trigger['deliveryLogs'][0]['id'])['body']);
    }

    public function testARetriedNotificationIsSentOnce(): void
    {
        // A queued notification keeps its id across the job's retries: the same id and recipient give the same idempotency key.
        $id = 'b3a1f6a0-0c1e-4c9e-9a43-' . bin2hex(random_bytes(6));
        $first = $this->channel->send(self::notifiable(ClientTest::phone(23)), self::notification(fn () => NkraMessage::create('Once'), $id));
        $retry = $this->channel->send(self::notifiable(ClientTest::phone(23)), self::notification(fn () => NkraMessage::create('Once'), $id));
        self::assertSame($first['id'], $retry['id']);
        self::assertSame([$first['id']], array_column(ClientTest::logsTo(ClientTest::phone(23)), 'id'));
        $other = $this->channel->send(self::notifiable(ClientTest::phone(24)), self::notification(fn () => NkraMessage::create('Once'), $id));
        self::assertNotSame($first['id'], $other['id']);
    }

    public function testSkipsANotifiableWithoutARouteAndExplainsAMissingToNkra(): void
    {
        self::assertNull($this->channel->send(self::notifiable(null), self::notification(fn () => 'nobody to send to')));
        try {
            $this->channel->send(self::notifiable(ClientTest::phone(25)), new class () {
            });
            self::fail('a notification without toNkra was sent');
        } catch (\LogicException $error) {
            self::assertStringContainsString('toNkra', $error->getMessage());
        }
    }

    public function testApiErrorsReachTheCallerAsNkraException(): void
    {
        try {
            $this->channel->send(self::notifiable('not a phone'), self::notification(fn () => 'x'));
            self::fail('an invalid recipient was accepted');
        } catch (NkraException $error) {
            self::assertSame(['VALIDATION_ERROR', 400], [$error->errorCode, $error->status]);
        }
    }

    public function testTheServiceProviderBindsTheClientAndRegistersTheNkraChannel(): void
    {
        if (!class_exists(ServiceProvider::class)) {
            require_once __DIR__ . '/Support/illuminate-fakes.php';
        }
        $app = new FakeContainer(['services' => ['nkra' => ['api_key' => getenv('NKRA_API_KEY'), 'base_url' => getenv('NKRA_BASE_URL'), 'timeout' => 10]]]);
        $provider = new NkraServiceProvider($app);
        $provider->register();
        $provider->boot();
        $client = $app->make(NkraClient::class);
        self::assertSame($client, $app->make('nkra'));
        self::assertSame(rtrim(getenv('NKRA_BASE_URL'), '/'), $client->baseUrl);
        $channel = $app->make(ChannelManager::class)->driver('nkra');
        self::assertInstanceOf(NkraChannel::class, $channel);
        self::assertSame('DELIVERED', $channel->send(self::notifiable(ClientTest::phone(26)), self::notification(fn () => 'Via the provider'))['status']);
        $this->expectExceptionMessage('services.nkra.api_key is not set');
        ClientFactory::fromConfig([]);
    }
}
