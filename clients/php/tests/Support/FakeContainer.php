<?php

declare(strict_types=1);

namespace Nkra\Tests\Support;

/** The part of Laravel's container the service provider uses: singleton, alias, make, resolved, afterResolving, and a config repository. */
final class FakeContainer
{
    /** @var array<string, \Closure> */
    private array $bindings = [];
    /** @var array<string, object> */
    private array $instances = [];
    /** @var array<string, string> */
    private array $aliases = [];
    /** @var array<string, list<\Closure>> */
    private array $afterResolving = [];

    /** @param array<string, mixed> $config */
    public function __construct(private readonly array $config)
    {
    }

    public function singleton(string $abstract, \Closure $factory): void
    {
        $this->bindings[$abstract] = $factory;
    }

    public function alias(string $abstract, string $alias): void
    {
        $this->aliases[$alias] = $abstract;
    }

    public function resolved(string $abstract): bool
    {
        return isset($this->instances[$abstract]);
    }

    public function afterResolving(string $abstract, \Closure $callback): void
    {
        $this->afterResolving[$abstract][] = $callback;
    }

    public function make(string $abstract): mixed
    {
        $abstract = $this->aliases[$abstract] ?? $abstract;
        if ($abstract === 'config') {
            $config = $this->config;
            return new class ($config) {
                public function __construct(private array $values)
                {
                }

                public function get(string $key, mixed $default = null): mixed
                {
                    $value = $this->values;
                    foreach (explode('.', $key) as $part) {
                        if (!is_array($value) || !array_key_exists($part, $value)) {
                            return $default;
                        }
                        $value = $value[$part];
                    }
                    return $value;
                }
            };
        }
        if (!isset($this->instances[$abstract])) {
            $instance = isset($this->bindings[$abstract]) ? ($this->bindings[$abstract])($this) : new $abstract($this);
            $this->instances[$abstract] = $instance;
            foreach ($this->afterResolving[$abstract] ?? [] as $callback) {
                $callback($instance, $this);
            }
        }
        return $this->instances[$abstract];
    }
}
