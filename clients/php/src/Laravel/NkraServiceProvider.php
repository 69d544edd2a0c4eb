<?php

declare(strict_types=1);

namespace Nkra\Laravel;

use Illuminate\Notifications\ChannelManager;
use Illuminate\Support\ServiceProvider;
use Nkra\NkraClient;

// Declared only where Laravel is installed (package discovery registers it: composer.json extra.laravel).
if (class_exists(ServiceProvider::class)) {
    /**
     * Binds NkraClient as a singleton built from config('services.nkra') and registers the 'nkra'
     * notification channel, so a notification's via() can return ['nkra'].
     */
    final class NkraServiceProvider extends ServiceProvider
    {
        public function register(): void
        {
            $this->app->singleton(NkraClient::class, static fn ($app) => ClientFactory::fromConfig((array) $app->make('config')->get('services.nkra', [])));
            $this->app->alias(NkraClient::class, 'nkra');
        }

        public function boot(): void
        {
            if (!class_exists(ChannelManager::class)) {
                return;
            }
            $extend = static function (ChannelManager $channels): void {
                $channels->extend('nkra', static fn ($app) => new NkraChannel($app->make(NkraClient::class)));
            };
            if ($this->app->resolved(ChannelManager::class)) {
                $extend($this->app->make(ChannelManager::class));
            } else {
                $this->app->afterResolving(ChannelManager::class, $extend);
            }
        }
    }
}
