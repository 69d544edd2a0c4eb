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
 * (routeNotificationFor, as the Notifiable trait) and a notification (toNkra, Laravel's `id`); then
 * the service provider and the channel inside Laravel's own container and notification sender
 * (Debian's php-illuminate-notifications, -events, -config 8.83), or, where Laravel is not
 * installed, with stand-ins of the few container and ChannelManager methods the provider calls.
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
        if (class_exists(\Illuminate\Container\Container::class) && class_exists(\Illuminate\Notifications\NotificationSender::class)) {
            $this->insideLaravel();
        } else {
            $this->withStandIns();
        }
        $this->expectExceptionMessage('services.nkra.api_key is not set');
        ClientFactory::fromConfig([]);
    }

    /** Laravel's own container, notification sender and events (Debian's php-illuminate-* 8.83, as .ci/run installs them). */
    private function insideLaravel(): void
    {
        require_once __DIR__ . '/Support/laravel-app-helper.php';
        $app = new \Illuminate\Container\Container();
        \Illuminate\Container\Container::setInstance($app);
        $app->instance('config', new \Illuminate\Config\Repository(['services' => ['nkra' => [
            'api_key' => getenv('NKRA_API_KEY'), 'base_url' => getenv('NKRA_BASE_URL'), 'timeout' => 10]]]));
        $app->singleton(\Illuminate\Contracts\Events\Dispatcher::class, static fn ($app) => new \Illuminate\Events\Dispatcher($app));
        $app->singleton(\Illuminate\Contracts\Bus\Dispatcher::class, static fn ($app) => new \Illuminate\Bus\Dispatcher($app));
        (new \Illuminate\Notifications\NotificationServiceProvider($app))->register();
        $provider = new NkraServiceProvider($app);
        $provider->register();
        $provider->boot();
        $client = $app->make(NkraClient::class);
        self::assertSame($client, $app->make('nkra'));
        self::assertSame(rtrim(getenv('NKRA_BASE_URL'), '/'), $client->baseUrl);
        self::assertInstanceOf(NkraChannel::class, $app->make(ChannelManager::class)->driver('nkra'));

        $responses = [];
        $app->make(\Illuminate\Contracts\Events\Dispatcher::class)->listen(\Illuminate\Notifications\Events\NotificationSent::class,
            static function ($event) use (&$responses): void { $responses[] = [$event->channel, $event->response]; });
        $user = new class () {
            use \Illuminate\Notifications\Notifiable;

            public function routeNotificationForNkra(object $notification): string
            {
                return ClientTest::phone(27);
            }
        };
        $shipped = new class () extends \Illuminate\Notifications\Notification {
            /** @param list<string> $via */
            public array $via = ['nkra'];

            public function via(object $notifiable): array
            {
                return $this->via;
            }

            public function toNkra(object $notifiable): NkraMessage
            {
                return NkraMessage::create('Shipped, told by Laravel');
            }
        };
        $user->notify($shipped);
        (new \Illuminate\Notifications\AnonymousNotifiable())->route('nkra', ClientTest::phone(28))->notify($shipped);
        $byClass = clone $shipped;
        $byClass->via = [NkraChannel::class]; // a channel named by its class, resolved from the container
        $user->notify($byClass);
        self::assertSame([['nkra', 'DELIVERED', ClientTest::phone(27)], ['nkra', 'DELIVERED', ClientTest::phone(28)], [NkraChannel::class, 'DELIVERED', ClientTest::phone(27)]],
            array_map(static fn ($r) => [$r[0], $r[1]['status'], $r[1]['recipient']], $responses));
        self::assertSame('Shipped, told by Laravel', $this->client->getMessage($responses[0][1]['id'])['body']);
        self::assertNotSame($responses[0][1]['id'], $responses[2][1]['id']); // two notifications (two ids), two messages
    }

    /** Where Laravel is not installed: stand-ins of the container and ChannelManager methods the provider calls. */
    private function withStandIns(): void
    {
        require_once __DIR__ . '/Support/illuminate-fakes.php';
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
    }
}
