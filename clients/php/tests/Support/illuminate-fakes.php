<?php

declare(strict_types=1);

// The few Laravel classes the service provider touches, reduced to what it calls. Loaded by
// LaravelTest only where Laravel is not installed (this machine installs PHP from Debian, without
// Laravel); with Laravel present the real classes are used.

namespace Illuminate\Support {
    if (!class_exists(ServiceProvider::class)) {
        abstract class ServiceProvider
        {
            public function __construct(protected $app)
            {
            }
        }
    }
}

namespace Illuminate\Notifications {
    if (!class_exists(ChannelManager::class)) {
        class ChannelManager
        {
            /** @var array<string, \Closure> */
            private array $customCreators = [];

            public function __construct(private $container)
            {
            }

            public function extend(string $driver, \Closure $callback): static
            {
                $this->customCreators[$driver] = $callback;
                return $this;
            }

            public function driver(string $driver): object
            {
                return ($this->customCreators[$driver] ?? throw new \InvalidArgumentException("Driver [{$driver}] not supported."))($this->container);
            }
        }
    }
}
